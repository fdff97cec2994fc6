import type { ReferralProgram } from '../domain/referral-program';

/** What the operator CLI prints for `referrals:suspend` and `referrals:resume`. */
export interface ReferralProgramView {
  organizationId: string;
  /** When referrals were switched on by the first invite; null while never. */
  enabledAt: string | null;
  /** When the suspension in force began; null when not suspended. */
  suspendedAt: string | null;
}

export function presentReferralProgram(program: ReferralProgram): ReferralProgramView {
  return {
    organizationId: program.organizationId,
    enabledAt: program.enabledAt?.toISOString() ?? null,
    suspendedAt: program.suspendedAt?.toISOString() ?? null,
  };
}
