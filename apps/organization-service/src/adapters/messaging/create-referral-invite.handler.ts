import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { CreateReferralInviteUseCase } from '../../application/use-cases/create-referral-invite/create-referral-invite.use-case';

@Injectable()
export class CreateReferralInviteHandler implements CommandHandler<'organization', 'referral-invites.create'> {
  readonly command = 'referral-invites.create' as const;

  constructor(private readonly useCase: CreateReferralInviteUseCase) {}

  execute(payload: CommandPayload<'organization', 'referral-invites.create'>): Promise<CommandResult<'organization', 'referral-invites.create'>> {
    return this.useCase.execute(payload);
  }
}
