import { beneficiaryInMemory, cryptoCommand } from '../../../../test/support/in-memory/beneficiary-in-memory.kit';

describe('CreateCryptoBeneficiaryUseCase (in memory)', () => {
  it('creates a crypto beneficiary on a sandbox chain, with its display name and platform', async () => {
    const kit = beneficiaryInMemory();
    const view = await kit.createCrypto.execute(cryptoCommand());
    expect(view).toMatchObject({
      type: 'CRYPTO',
      status: 'ACTIVE',
      bank: null,
      crypto: { chainName: 'ETHEREUM_SEPOLIA', chainDisplayName: 'Ethereum Sepolia', platform: 'EVM', address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', asset: 'USDC' },
    });
  });

  it('uses the catalog of its environment: mainnets in production, never the sandbox chains', async () => {
    const production = beneficiaryInMemory('production');
    await expect(production.createCrypto.execute(cryptoCommand())).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^chainName: /) });
    await expect(production.createCrypto.execute(cryptoCommand({ chainName: 'ETHEREUM' }))).resolves.toMatchObject({ crypto: { chainName: 'ETHEREUM', chainDisplayName: 'Ethereum' } });
  });

  it('refuses a bad checksum and flags the same wallet twice (addresses compared case-blind on EVM)', async () => {
    const kit = beneficiaryInMemory();
    await expect(kit.createCrypto.execute(cryptoCommand({ address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' }))).rejects.toMatchObject({ code: 'invalid_request', message: expect.stringMatching(/^address: /) });
    const first = await kit.createCrypto.execute(cryptoCommand());
    const again = await kit.createCrypto.execute(cryptoCommand({ address: '0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed' }));
    expect(again.duplicateOf).toBe(first.beneficiaryId);
    await expect(kit.createCrypto.execute(cryptoCommand({ accountId: 'acct_other' }))).rejects.toMatchObject({ code: 'account_not_found' });
  });
});
