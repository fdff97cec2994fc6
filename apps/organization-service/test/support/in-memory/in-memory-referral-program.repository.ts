import { ReferralProgramRepository } from '../../../src/application/ports/referral-program.repository';
import { ReferralProgram } from '../../../src/domain/referral-program';

/** The ReferralProgramRepository contract over a map; `none` for an organization never seen. */
export class InMemoryReferralProgramRepository extends ReferralProgramRepository {
  readonly rows = new Map<string, ReferralProgram>();

  async find(organizationId: string): Promise<ReferralProgram> {
    return this.rows.get(organizationId) ?? ReferralProgram.none(organizationId);
  }

  async save(program: ReferralProgram): Promise<void> {
    this.rows.set(program.organizationId, program);
  }
}
