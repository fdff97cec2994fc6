import type { OrganizationStanding, VerificationStatus } from '@pfs/contracts';
import { approvedStanding } from './approved-standing';
import { OrganizationDirectory } from './ports/organization-directory';

/** A copy that may lag the owner, as the ledger's does while an event is on the way. */
class LaggingDirectory extends OrganizationDirectory {
  copy: VerificationStatus = 'APPROVED';
  owner: VerificationStatus = 'APPROVED';
  confirmations = 0;

  async standing(organizationId: string): Promise<OrganizationStanding> {
    return this.of(organizationId, this.copy);
  }

  async confirmedStanding(organizationId: string): Promise<OrganizationStanding> {
    this.confirmations += 1;
    this.copy = this.owner;
    return this.of(organizationId, this.owner);
  }

  private of(organizationId: string, verificationStatus: VerificationStatus): OrganizationStanding {
    return { organizationId, verificationStatus, parentOrganizationId: null, parentHoldsActiveLoa: false, referrerOrganizationId: null };
  }
}

describe('approvedStanding', () => {
  const org = 'org_00000000000000000000000000000001';

  it('decides an approval from the copy without asking the owner', async () => {
    const directory = new LaggingDirectory();
    await expect(approvedStanding(directory, org)).resolves.toMatchObject({ verificationStatus: 'APPROVED' });
    expect(directory.confirmations).toBe(0);
  });

  it('serves an organization the owner approved while the copy still says otherwise', async () => {
    const directory = new LaggingDirectory();
    directory.copy = 'PENDING';
    await expect(approvedStanding(directory, org)).resolves.toMatchObject({ verificationStatus: 'APPROVED' });
    expect(directory.confirmations).toBe(1);
  });

  it.each(['PENDING', 'ON_HOLD', 'RESUBMISSION_REQUIRED'] as const)('refuses %s only once the owner says so too', async (status) => {
    const directory = new LaggingDirectory();
    directory.copy = status;
    directory.owner = status;
    await expect(approvedStanding(directory, org)).rejects.toMatchObject({ code: 'verification_required' });
    expect(directory.confirmations).toBe(1);
  });
});
