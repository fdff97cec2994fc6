import { bankCommand, beneficiaryInMemory } from '../../../../test/support/in-memory/beneficiary-in-memory.kit';

describe('UnarchiveBeneficiaryUseCase (in memory)', () => {
  it('brings an ARCHIVED beneficiary back ACTIVE; anything else is beneficiary_not_archived', async () => {
    const kit = beneficiaryInMemory();
    const { beneficiaryId } = await kit.createBank.execute(bankCommand());
    const target = { organizationId: 'org_1', beneficiaryId };
    await expect(kit.unarchive.execute(target)).rejects.toMatchObject({ code: 'beneficiary_not_archived', message: `Beneficiary ${beneficiaryId} is ACTIVE, not ARCHIVED.` });
    await kit.archive.execute(target);
    await expect(kit.unarchive.execute({ organizationId: 'org_2', beneficiaryId })).rejects.toMatchObject({ code: 'beneficiary_not_found' });
    expect(await kit.unarchive.execute(target)).toMatchObject({ status: 'ACTIVE' });
  });
});
