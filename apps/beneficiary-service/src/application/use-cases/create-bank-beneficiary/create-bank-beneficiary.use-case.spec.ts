import { bankCommand, beneficiaryInMemory } from '../../../../test/support/in-memory/beneficiary-in-memory.kit';

describe('CreateBankBeneficiaryUseCase (in memory)', () => {
  it('creates an ACTIVE bank beneficiary whose view shows the last four digits only and never the tax id', async () => {
    const kit = beneficiaryInMemory();
    const view = await kit.createBank.execute(bankCommand());
    expect(view).toMatchObject({
      object: 'beneficiary',
      accountId: 'acct_1',
      type: 'BANK',
      status: 'ACTIVE',
      entityType: 'INDIVIDUAL',
      taxIdType: 'TIN',
      crypto: null,
      servicenet: null,
      duplicateOf: null,
      bank: { method: 'SEPA', currency: 'EUR', swiftCode: 'COBADEFFXXX', iban: 'DE89370400440532013000', accountNumberLast4: '3000' },
    });
    // The IBAN is returned (api-decisions §7) and embeds the number; nothing else may carry it.
    expect(JSON.stringify({ ...view, bank: { ...view.bank, iban: null } })).not.toContain('0532013000');
    expect(JSON.stringify(view)).not.toMatch(/accountNumber"|taxId"|12345678901/);
    expect(kit.beneficiaries.beneficiaries.get(view.beneficiaryId)?.props.bank?.accountNumber).toBe('0532013000');
  });

  it("refuses another organization's account as if it did not exist, and invalid details naming the field, creating nothing", async () => {
    const kit = beneficiaryInMemory();
    await expect(kit.createBank.execute(bankCommand({ accountId: 'acct_other' }))).rejects.toMatchObject({ code: 'account_not_found', message: 'No account acct_other was found.' });
    await expect(kit.createBank.execute(bankCommand({ iban: 'DE89370400440532013001' }))).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^iban: /) });
    await expect(kit.createBank.execute(bankCommand({ method: 'ACH' }))).rejects.toMatchObject({ code: 'invalid_request' });
    expect(kit.beneficiaries.beneficiaries.size).toBe(0);
  });

  it('flags a second payee of the same account and destination with duplicateOf, and not one of another account', async () => {
    const kit = beneficiaryInMemory();
    const first = await kit.createBank.execute(bankCommand());
    const second = await kit.createBank.execute(bankCommand({ nickname: 'Jane again', iban: 'DE89 3704 0044 0532 0130 00' }));
    const elsewhere = await kit.createBank.execute(bankCommand({ accountId: 'acct_2' }));
    expect(second.duplicateOf).toBe(first.beneficiaryId);
    expect(elsewhere.duplicateOf).toBeNull();
  });
});
