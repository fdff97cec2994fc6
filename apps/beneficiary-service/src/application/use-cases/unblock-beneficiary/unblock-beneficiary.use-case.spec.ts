import { bankCommand, beneficiaryInMemory } from '../../../../test/support/in-memory/beneficiary-in-memory.kit';

describe('UnblockBeneficiaryUseCase (in memory)', () => {
  it('brings a BLOCKED beneficiary back ACTIVE; one that is not blocked is invalid_request', async () => {
    const kit = beneficiaryInMemory();
    const { beneficiaryId } = await kit.createBank.execute(bankCommand());
    const target = { organizationId: 'org_1', beneficiaryId };
    await expect(kit.unblock.execute(target)).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringContaining('not BLOCKED') });
    await kit.block.execute(target);
    await expect(kit.unblock.execute({ organizationId: 'org_2', beneficiaryId })).rejects.toMatchObject({ code: 'beneficiary_not_found' });
    expect(await kit.unblock.execute(target)).toMatchObject({ status: 'ACTIVE' });
    kit.settings.environment = 'production';
    await expect(kit.unblock.execute(target)).rejects.toMatchObject({ code: 'not_found' });
  });
});
