import type { PayableBeneficiaryView } from '@pfs/contracts';
import { payoutDestination } from './payout-beneficiary';

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
    expect(payoutDestination('CRYPTO', 'USDT', base)).toEqual({ chainName: 'SOLANA_DEVNET' });
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
});
