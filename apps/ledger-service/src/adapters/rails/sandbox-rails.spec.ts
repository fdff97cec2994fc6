import { Big, SANDBOX_CHAIN_CATALOG, type ChainName, type PayableBeneficiaryView, type PayoutDestinationView } from '@pfs/contracts';
import { Transaction } from '../../domain/transaction';
import { isSandboxRefusedAddress, SandboxCryptoRail, SandboxFiatRail } from './sandbox-rails';

const NOW = new Date('2026-11-27T09:00:00.000Z');

function cryptoBeneficiary(chainName: ChainName, address: string): PayableBeneficiaryView {
  const chain = SANDBOX_CHAIN_CATALOG[chainName];
  return {
    beneficiaryId: 'bene_1',
    organizationId: 'org_1',
    accountId: 'acct_1',
    type: 'CRYPTO',
    status: 'ACTIVE',
    payable: true,
    nickname: 'Wallet',
    entityType: null,
    name: null,
    country: null,
    bank: null,
    crypto: { chainName, chainDisplayName: chain.chainDisplayName, platform: chain.platform, address, asset: null },
    servicenet: null,
  };
}

/** A payout as created, its destination taken from `beneficiary` (a crypto one unless told). */
function payout(rail: 'FIAT' | 'CRYPTO', asset: string, amount: string, beneficiary = cryptoBeneficiary('BASE_SEPOLIA', '0x52908400098527886E0F7030069857D2E4169EE7')): Transaction {
  const crypto = beneficiary.crypto;
  const destination: PayoutDestinationView = {
    rail,
    nickname: beneficiary.nickname,
    name: null,
    bank: null,
    crypto: crypto && { chainName: crypto.chainName, platform: crypto.platform, address: crypto.address },
  };
  return Transaction.payout({
    id: 'txn_1',
    organizationId: 'org_1',
    accountId: 'acct_1',
    rail,
    asset,
    amount: new Big(amount),
    fee: new Big(1),
    beneficiaryId: 'bene_1',
    chainName: null,
    destination,
    reference: null,
    journalId: 'jrnl_1',
    now: NOW,
  }).transaction;
}

describe('the sandbox rails', () => {
  it('refuse each chain family’s zero and burn addresses, whatever the case of an EVM one, and nothing else', () => {
    expect(isSandboxRefusedAddress('EVM', '0x0000000000000000000000000000000000000000')).toBe(true);
    expect(isSandboxRefusedAddress('EVM', '0x000000000000000000000000000000000000dEaD')).toBe(true);
    expect(isSandboxRefusedAddress('EVM', '0x000000000000000000000000000000000000DEAD')).toBe(true);
    expect(isSandboxRefusedAddress('EVM', '0x52908400098527886E0F7030069857D2E4169EE7')).toBe(false);
    expect(isSandboxRefusedAddress('SOLANA', '11111111111111111111111111111111')).toBe(true);
    expect(isSandboxRefusedAddress('SOLANA', '1nc1nerator11111111111111111111111111111111')).toBe(true);
    expect(isSandboxRefusedAddress('SOLANA', '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T')).toBe(false);
    expect(isSandboxRefusedAddress('TRON', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb')).toBe(true);
    expect(isSandboxRefusedAddress('TRON', 'TJRabPrwbZy45sbavfcjinPJC18kjpRTv8')).toBe(false);
  });

  it('the crypto rail answers chain_send_failed naming the chain for a burn address, and takes any other send', async () => {
    const rail = new SandboxCryptoRail();
    const instruction = (beneficiary: PayableBeneficiaryView) => ({
      rail: 'CRYPTO' as const,
      asset: 'USDC',
      amount: new Big(1),
      beneficiary,
      destination: payout('CRYPTO', 'USDC', '1', beneficiary).props.destination!,
      reference: null,
    });
    await expect(rail.submit(instruction(cryptoBeneficiary('TRON_NILE', 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb')))).rejects.toMatchObject({
      code: 'chain_send_failed',
      message: expect.stringContaining('TRON_NILE'),
    });
    await expect(rail.submit(instruction(cryptoBeneficiary('BASE_SEPOLIA', '0x52908400098527886E0F7030069857D2E4169EE7')))).resolves.toBeUndefined();
    await expect(rail.verdict(payout('CRYPTO', 'USDC', '1'))).resolves.toEqual({ settles: true });
  });

  it('the crypto rail sends to the payout’s stored destination: what the instruction’s beneficiary says later is never read', async () => {
    const rail = new SandboxCryptoRail();
    const fine = cryptoBeneficiary('BASE_SEPOLIA', '0x52908400098527886E0F7030069857D2E4169EE7');
    const sent = payout('CRYPTO', 'USDC', '1', fine);
    // The beneficiary object changing afterwards (a PATCH to the burn address) does not reach the payout.
    fine.crypto!.address = '0x000000000000000000000000000000000000dEaD';
    await expect(rail.verdict(sent)).resolves.toEqual({ settles: true });
    // A payout whose stored destination is a refused address is declined, never sent.
    await expect(rail.verdict(payout('CRYPTO', 'USDC', '1', cryptoBeneficiary('BASE_SEPOLIA', '0x0000000000000000000000000000000000000000')))).resolves.toEqual({
      settles: false,
      reason: expect.stringContaining('BASE_SEPOLIA'),
    });
  });

  it('the fiat rail declines a LOCKED amount ending in .13 and settles every other', async () => {
    const rail = new SandboxFiatRail();
    await expect(rail.verdict(payout('FIAT', 'USD', '25.13'))).resolves.toEqual({ settles: false, reason: expect.stringContaining('.13') });
    await expect(rail.verdict(payout('FIAT', 'EUR', '0.13'))).resolves.toMatchObject({ settles: false });
    await expect(rail.verdict(payout('FIAT', 'USD', '25.1'))).resolves.toEqual({ settles: true });
    await expect(rail.verdict(payout('FIAT', 'USD', '13'))).resolves.toEqual({ settles: true });
    await expect(rail.verdict(payout('FIAT', 'USD', '25.31'))).resolves.toEqual({ settles: true });
  });
});
