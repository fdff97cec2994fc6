import { bankCommand, beneficiaryInMemory } from '../../../../test/support/in-memory/beneficiary-in-memory.kit';

describe('GetPayableBeneficiaryUseCase (in memory)', () => {
  it('gives a payout the full bank details, their masked form (what the payout keeps), and whether it may pay now: only ACTIVE is payable', async () => {
    const kit = beneficiaryInMemory();
    const { beneficiaryId } = await kit.createBank.execute(bankCommand());
    const target = { organizationId: 'org_1', beneficiaryId };
    expect(await kit.getPayable.execute(target)).toMatchObject({
      type: 'BANK',
      status: 'ACTIVE',
      payable: true,
      name: 'Jane Doe',
      bank: { accountNumber: '0532013000', accountNumberLast4: '3000', iban: 'DE89370400440532013000', currency: 'EUR', method: 'SEPA' },
      crypto: null,
      servicenet: null,
    });
    await kit.block.execute(target);
    expect(await kit.getPayable.execute(target)).toMatchObject({ status: 'BLOCKED', payable: false });
    await expect(kit.getPayable.execute({ organizationId: 'org_2', beneficiaryId })).rejects.toMatchObject({ code: 'beneficiary_not_found' });
  });

  it('gives a transfer the receiving organization of a SERVICENET beneficiary, its id included', async () => {
    const kit = beneficiaryInMemory();
    const { beneficiaryId } = await kit.createServicenet.execute({ organizationId: 'org_1', accountId: 'acct_1', nickname: 'Globex', handle: 'globex' });
    expect(await kit.getPayable.execute({ organizationId: 'org_1', beneficiaryId })).toMatchObject({
      type: 'SERVICENET',
      payable: true,
      bank: null,
      crypto: null,
      servicenet: { organizationId: 'org_2', handle: 'globex', organizationName: 'Globex Ltd' },
    });
  });
});
