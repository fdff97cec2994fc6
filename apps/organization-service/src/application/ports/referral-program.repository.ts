import type { ReferralProgram } from '../../domain/referral-program';

export abstract class ReferralProgramRepository {
  /** The organization's program; `ReferralProgram.none` when referrals were never touched. */
  abstract find(organizationId: string): Promise<ReferralProgram>;
  /** Inserts or updates. Callers hold the organization's row lock, so saves do not race. */
  abstract save(program: ReferralProgram): Promise<void>;
}
