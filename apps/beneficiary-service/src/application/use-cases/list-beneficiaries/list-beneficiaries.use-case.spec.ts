import { bankCommand, beneficiaryInMemory, cryptoCommand } from '../../../../test/support/in-memory/beneficiary-in-memory.kit';

describe('ListBeneficiariesUseCase (in memory)', () => {
  it("pages the organization's beneficiaries newest first, filtered, and never another organization's", async () => {
    const kit = beneficiaryInMemory();
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      ids.push((await kit.createBank.execute(bankCommand({ nickname: `bank ${i}` }))).beneficiaryId);
      kit.clock.advance(1000);
    }
    const wallet = await kit.createCrypto.execute(cryptoCommand({ accountId: 'acct_2' }));
    await kit.archive.execute({ organizationId: 'org_1', beneficiaryId: ids[0] });
    kit.accounts.owners.set('acct_9', 'org_9');
    await kit.createBank.execute(bankCommand({ organizationId: 'org_9', accountId: 'acct_9' }));

    const first = await kit.list.execute({ organizationId: 'org_1', page: { limit: 2, cursor: null }, filters: {} });
    expect(first.data.map((b) => b.beneficiaryId)).toEqual([wallet.beneficiaryId, ids[2]]);
    expect(first.hasMore).toBe(true);
    const second = await kit.list.execute({ organizationId: 'org_1', page: { limit: 2, cursor: first.nextCursor }, filters: {} });
    expect(second.data.map((b) => b.beneficiaryId)).toEqual([ids[1], ids[0]]);
    expect(second.hasMore).toBe(false);

    const page = (filters: object) => kit.list.execute({ organizationId: 'org_1', page: { limit: 10, cursor: null }, filters }).then((p) => p.data.map((b) => b.beneficiaryId));
    expect(await page({ type: 'CRYPTO' })).toEqual([wallet.beneficiaryId]);
    expect(await page({ accountId: 'acct_1', status: 'ACTIVE' })).toEqual([ids[2], ids[1]]);
    expect(await page({ status: 'ARCHIVED' })).toEqual([ids[0]]);
    // A cursor is bound to its filters.
    await expect(kit.list.execute({ organizationId: 'org_1', page: { limit: 2, cursor: first.nextCursor }, filters: { type: 'BANK' } })).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
