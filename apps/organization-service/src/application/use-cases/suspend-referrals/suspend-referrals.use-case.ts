import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@pfs/contracts';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { OrganizationRepository } from '../../ports/organization.repository';
import { ReferralProgramRepository } from '../../ports/referral-program.repository';
import { presentReferralProgram, type ReferralProgramView } from '../../referral-program.presenter';
import type { SuspendReferralsCommand } from './suspend-referrals.command';

/**
 * Operator CLI `referrals:suspend`: from now on the organization's POST /v1/referral-invites is
 * 403 `forbidden` (not enabled for the action). Repeating keeps the first suspension time.
 */
@Injectable()
export class SuspendReferralsUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly programs: ReferralProgramRepository,
    private readonly clock: Clock,
  ) {}

  execute(command: SuspendReferralsCommand): Promise<ReferralProgramView> {
    return this.unitOfWork.run(async () => {
      // The organization's row lock orders this against a concurrent invite.
      if (!(await this.organizations.findByIdForUpdate(command.organizationId))) throw new OrganizationNotFoundError(command.organizationId);
      const program = await this.programs.find(command.organizationId);
      const suspended = program.suspend(this.clock.now());
      if (suspended !== program) await this.programs.save(suspended);
      return presentReferralProgram(suspended);
    });
  }
}
