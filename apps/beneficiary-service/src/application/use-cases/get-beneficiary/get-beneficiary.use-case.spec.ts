import { bankCommand, beneficiaryInMemory } from '../../../../test/support/in-memory/beneficiary-in-memory.kit';

describe('GetBeneficiaryUseCase (in memory)', () => {
  it("answers the organization's beneficiary, and beneficiary_not_found for another's or none", async () => {
    const kit = beneficiaryInMemory();
    const created = await kit.createBank.execute(bankCommand());
    await expect(kit.get.execute({ organizationId: 'org_1', beneficiaryId: created.beneficiaryId })).resolves.toEqual(created);
    await expect(kit.get.execute({ organizationId: 'org_2', beneficiaryId: created.beneficiaryId })).rejects.toMatchObject({ code: 'beneficiary_not_found', message: `No beneficiary ${created.beneficiaryId} was found.` });
    await expect(kit.get.execute({ organizationId: 'org_1', beneficiaryId: 'bene_missing' })).rejects.toMatchObject({ code: 'beneficiary_not_found' });
  });
});
