import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { ListReferralInvitesUseCase } from '../../application/use-cases/list-referral-invites/list-referral-invites.use-case';

@Injectable()
export class ListReferralInvitesHandler implements CommandHandler<'organization', 'referral-invites.list'> {
  readonly command = 'referral-invites.list' as const;

  constructor(private readonly useCase: ListReferralInvitesUseCase) {}

  execute(payload: CommandPayload<'organization', 'referral-invites.list'>): Promise<CommandResult<'organization', 'referral-invites.list'>> {
    return this.useCase.execute(payload);
  }
}
