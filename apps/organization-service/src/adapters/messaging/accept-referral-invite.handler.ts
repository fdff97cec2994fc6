import { Injectable } from '@nestjs/common';
import type { CommandPayload, CommandResult } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { AcceptReferralInviteUseCase } from '../../application/use-cases/accept-referral-invite/accept-referral-invite.use-case';

@Injectable()
export class AcceptReferralInviteHandler implements CommandHandler<'organization', 'referral-invites.accept'> {
  readonly command = 'referral-invites.accept' as const;

  constructor(private readonly useCase: AcceptReferralInviteUseCase) {}

  execute(payload: CommandPayload<'organization', 'referral-invites.accept'>): Promise<CommandResult<'organization', 'referral-invites.accept'>> {
    return this.useCase.execute(payload);
  }
}
