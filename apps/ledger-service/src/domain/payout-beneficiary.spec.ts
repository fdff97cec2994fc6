import type { PayableBeneficiaryView } from '@pfs/contracts';
import { assertBeneficiaryOfAccount, payoutDestination } from './payout-beneficiary';

const base: PayableBeneficiaryView = {
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
  crypto: { chainName: 'SOLANA_DEVNET', chainDisplayName: 'Solana Devnet', platform: 'SOLANA', address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T', asset: null },
  servicenet: null,
};

describe('payoutDestination', () => {
  it('gives a crypto payout the beneficiary’s chain when the chain carries the asset', () => {
    expect(payoutDestination('CRYPTO', 'USDT', base)).toMatchObject({ chainName: 'SOLANA_DEVNET' });
    expect(() => payoutDestination('CRYPTO', 'ETH', base)).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('maps the statuses: BLOCKED → beneficiary_blocked, INACTIVE and ARCHIVED → invalid_request', () => {
    expect(() => payoutDestination('CRYPTO', 'USDC', { ...base, status: 'BLOCKED', payable: false })).toThrow(expect.objectContaining({ code: 'beneficiary_blocked' }));
    for (const status of ['INACTIVE', 'ARCHIVED'] as const) {
      expect(() => payoutDestination('CRYPTO', 'USDC', { ...base, status, payable: false })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    }
  });

  it('refuses a beneficiary of another type, before its status', () => {
    expect(() => payoutDestination('FIAT', 'USD', { ...base, status: 'BLOCKED' })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
    expect(() => payoutDestination('CRYPTO', 'USDC', { ...base, type: 'SERVICENET', crypto: null })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });

  it('pays a beneficiary only from the account it is registered on: another account of the organization is invalid_request naming beneficiaryId', () => {
    expect(() => assertBeneficiaryOfAccount(base, 'acct_1')).not.toThrow();
    expect(() => assertBeneficiaryOfAccount(base, 'acct_2')).toThrow(expect.objectContaining({ code: 'invalid_request', message: expect.stringMatching(/^beneficiaryId: .*another of your accounts, not acct_2/) }));
  });

  it('keeps a crypto destination as chain, platform and address, with the nickname and name', () => {
    expect(payoutDestination('CRYPTO', 'USDC', { ...base, name: 'Ada Lovelace' }).destination).toEqual({
      rail: 'CRYPTO',
      nickname: 'Wallet',
      name: 'Ada Lovelace',
      bank: null,
      crypto: { chainName: 'SOLANA_DEVNET', platform: 'SOLANA', address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T' },
    });
  });

  it('keeps a bank destination masked: the last four of the account number, no full number and no IBAN', () => {
    const bank: PayableBeneficiaryView = {
      ...base,
      type: 'BANK',
      crypto: null,
      bank: {
        bankName: 'Sandbox Bank',
        method: 'SEPA',
        currency: 'EUR',
        swiftCode: 'DEUTDEFF',
        bankCountry: 'DE',
        iban: 'DE89370400440532013000',
        routingNumber: null,
        accountNumber: '0532013000',
        accountNumberLast4: '3000',
        bankAddressLine1: 'Taunusanlage 12',
        bankCity: 'Frankfurt',
        bankRegion: null,
        bankZipCode: '60325',
        intermediaryBankName: null,
        intermediarySwiftCode: null,
        intermediaryBankAddress: null,
      },
    };
    const { chainName, destination } = payoutDestination('FIAT', 'EUR', bank);
    expect(chainName).toBeNull();
    expect(destination).toEqual({
      rail: 'FIAT',
      nickname: 'Wallet',
      name: null,
      bank: { bankName: 'Sandbox Bank', method: 'SEPA', currency: 'EUR', swiftCode: 'DEUTDEFF', bankCountry: 'DE', routingNumber: null, accountNumberLast4: '3000' },
      crypto: null,
    });
    expect(JSON.stringify(destination)).not.toContain('0532013000');
  });
});
