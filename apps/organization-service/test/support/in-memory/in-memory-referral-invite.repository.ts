import type { CursorPosition } from '@pfs/contracts';
import { newestFirstPage } from '@pfs/test-doubles';
import { ReferralInviteRepository } from '../../../src/application/ports/referral-invite.repository';
import type { ReferralInvite } from '../../../src/domain/referral-invite';

/** The ReferralInviteRepository contract over a map: one invite per referrer and email. */
export class InMemoryReferralInviteRepository extends ReferralInviteRepository {
  readonly rows = new Map<string, ReferralInvite>();

  async findByEmailForUpdate(referrerOrganizationId: string, email: string): Promise<ReferralInvite | null> {
    return [...this.rows.values()].find((row) => row.referrerOrganizationId === referrerOrganizationId && row.email === email) ?? null;
  }

  async findByIdForUpdate(referralInviteId: string): Promise<ReferralInvite | null> {
    return this.rows.get(referralInviteId) ?? null;
  }

  async insert(invite: ReferralInvite): Promise<void> {
    if (await this.findByEmailForUpdate(invite.referrerOrganizationId, invite.email)) throw new Error(`duplicate invite for ${invite.email}`);
    this.rows.set(invite.id, invite);
  }

  async saveRenewal(invite: ReferralInvite): Promise<void> {
    this.rows.set(invite.id, invite);
  }

  async saveAcceptance(invite: ReferralInvite): Promise<void> {
    this.rows.set(invite.id, invite);
  }

  async listByReferrer(referrerOrganizationId: string, after: CursorPosition | null, limit: number): Promise<ReferralInvite[]> {
    return newestFirstPage([...this.rows.values()].filter((row) => row.referrerOrganizationId === referrerOrganizationId), after, limit);
  }
}
