import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '@pfs/contracts';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { OrganizationRepository } from '../../ports/organization.repository';
import { ReferralProgramRepository } from '../../ports/referral-program.repository';
import { presentReferralProgram, type ReferralProgramView } from '../../referral-program.presenter';
import type { ResumeReferralsCommand } from './resume-referrals.command';

/** Operator CLI `referrals:resume`: lifts a suspension; a no-op when there is none. */
@Injectable()
export class ResumeReferralsUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly programs: ReferralProgramRepository,
  ) {}

  execute(command: ResumeReferralsCommand): Promise<ReferralProgramView> {
    return this.unitOfWork.run(async () => {
      if (!(await this.organizations.findByIdForUpdate(command.organizationId))) throw new OrganizationNotFoundError(command.organizationId);
      const program = await this.programs.find(command.organizationId);
      const resumed = program.resume();
      if (program.suspended) await this.programs.save(resumed);
      return presentReferralProgram(resumed);
    });
  }
}
