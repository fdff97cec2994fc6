import { bankCommand, beneficiaryInMemory } from '../../../../test/support/in-memory/beneficiary-in-memory.kit';

describe('ArchiveBeneficiaryUseCase (in memory)', () => {
  it('archives an ACTIVE beneficiary once; again is beneficiary_already_archived, a blocked one beneficiary_blocked', async () => {
    const kit = beneficiaryInMemory();
    const { beneficiaryId } = await kit.createBank.execute(bankCommand());
    const target = { organizationId: 'org_1', beneficiaryId };
    await expect(kit.archive.execute({ organizationId: 'org_2', beneficiaryId })).rejects.toMatchObject({ code: 'beneficiary_not_found' });
    expect(await kit.archive.execute(target)).toMatchObject({ status: 'ARCHIVED' });
    await expect(kit.archive.execute(target)).rejects.toMatchObject({ code: 'beneficiary_already_archived' });
    const blocked = await kit.createBank.execute(bankCommand({ accountId: 'acct_2' }));
    await kit.block.execute({ organizationId: 'org_1', beneficiaryId: blocked.beneficiaryId });
    await expect(kit.archive.execute({ organizationId: 'org_1', beneficiaryId: blocked.beneficiaryId })).rejects.toMatchObject({ code: 'beneficiary_blocked' });
  });
});
