import { bankCommand, beneficiaryInMemory, cryptoCommand } from '../../../../test/support/in-memory/beneficiary-in-memory.kit';

describe('UpdateBeneficiaryUseCase (in memory)', () => {
  it('changes only what is given, clears with null, and refuses to clear what cannot be empty', async () => {
    const kit = beneficiaryInMemory();
    const { beneficiaryId } = await kit.createBank.execute(bankCommand({ email: 'jane@example.com', tags: ['payroll'] }));
    const update = (changes: Record<string, unknown>, organizationId = 'org_1') => kit.update.execute({ organizationId, beneficiaryId, changes });
    kit.clock.advance(5000);
    const cleared = await update({ email: null, tags: null, nickname: 'Jane D.' });
    expect(cleared).toMatchObject({ email: null, tags: [], nickname: 'Jane D.', firstName: 'Jane', updatedAt: kit.clock.now().toISOString() });
    await expect(update({ nickname: null })).rejects.toMatchObject({ code: 'invalid_request', message: 'nickname: cannot be cleared' });
    await expect(update({ swiftCode: null })).rejects.toMatchObject({ code: 'invalid_request', message: 'swiftCode: cannot be cleared' });
    await expect(update({ address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })).rejects.toMatchObject({ message: 'address: only crypto beneficiaries have a wallet address' });
    kit.clock.advance(5000);
    expect(await update({})).toEqual(cleared);
    await expect(update({ email: 'x@example.com' }, 'org_2')).rejects.toMatchObject({ code: 'beneficiary_not_found' });
    expect((await kit.get.execute({ organizationId: 'org_1', beneficiaryId })).nickname).toBe('Jane D.');
  });

  it("moves to another of the organization's accounts only, and checks a new destination for duplicates", async () => {
    const kit = beneficiaryInMemory();
    const first = await kit.createCrypto.execute(cryptoCommand());
    const other = await kit.createCrypto.execute(cryptoCommand({ address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' }));
    expect(other.duplicateOf).toBeNull();
    const update = (changes: Record<string, unknown>) => kit.update.execute({ organizationId: 'org_1', beneficiaryId: other.beneficiaryId, changes });
    await expect(update({ accountId: 'acct_other' })).rejects.toMatchObject({ code: 'account_not_found' });
    expect(await update({ address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })).toMatchObject({ duplicateOf: first.beneficiaryId });
    expect(await update({ accountId: 'acct_2' })).toMatchObject({ accountId: 'acct_2', duplicateOf: null });
  });

  it('refuses PATCH on an archived beneficiary and on a blocked one', async () => {
    const kit = beneficiaryInMemory();
    const { beneficiaryId } = await kit.createBank.execute(bankCommand());
    const target = { organizationId: 'org_1', beneficiaryId };
    await kit.block.execute(target);
    await expect(kit.update.execute({ ...target, changes: { nickname: 'x' } })).rejects.toMatchObject({ code: 'beneficiary_blocked' });
    await kit.unblock.execute(target);
    await kit.archive.execute(target);
    await expect(kit.update.execute({ ...target, changes: { nickname: 'x' } })).rejects.toMatchObject({ code: 'beneficiary_already_archived' });
  });
});
