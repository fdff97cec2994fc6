import { bankCommand, beneficiaryInMemory } from '../../../../test/support/in-memory/beneficiary-in-memory.kit';

describe('BlockBeneficiaryUseCase (in memory)', () => {
  it('blocks in the sandbox; an archived one stays archived; in production the operation does not exist', async () => {
    const kit = beneficiaryInMemory();
    const { beneficiaryId } = await kit.createBank.execute(bankCommand());
    const target = { organizationId: 'org_1', beneficiaryId };
    expect(await kit.block.execute(target)).toMatchObject({ status: 'BLOCKED' });
    await expect(kit.block.execute(target)).rejects.toMatchObject({ code: 'beneficiary_blocked' });
    await expect(kit.block.execute({ organizationId: 'org_2', beneficiaryId })).rejects.toMatchObject({ code: 'beneficiary_not_found' });
    const archived = await kit.createBank.execute(bankCommand({ accountId: 'acct_2' }));
    await kit.archive.execute({ organizationId: 'org_1', beneficiaryId: archived.beneficiaryId });
    await expect(kit.block.execute({ organizationId: 'org_1', beneficiaryId: archived.beneficiaryId })).rejects.toMatchObject({ code: 'beneficiary_already_archived' });

    kit.settings.environment = 'production';
    await expect(kit.block.execute({ organizationId: 'org_1', beneficiaryId: archived.beneficiaryId })).rejects.toMatchObject({ code: 'not_found' });
  });
});
