import type { QuoteView, TransactionView } from '@pfs/contracts';

/** Ids and views the stand-in services of the route specs answer with: valid, so responses match the document. */
export const ACCOUNT_ID = 'acct_0c9a7e5d3b1f4a2c8e6d4b2a0f9e8d7c';
export const BENEFICIARY_ID = 'bene_9a2c4e6f8b0d1c3e5a7f9b2d4c6e8a0f';
export const QUOTE_ID = 'quote_3e1f5a7c9b0d2e4f6a8c0b1d3e5f7a9c';

/** A quote as the quote service presents it. */
export const QUOTE_VIEW: QuoteView = {
  object: 'quote',
  quoteId: QUOTE_ID,
  accountId: ACCOUNT_ID,
  fromAsset: 'USD',
  toAsset: 'EUR',
  fromAmount: '100.00',
  toAmount: '91.66',
  appliedRate: '0.9166',
  spread: { fee: '1.00', asset: 'USD' },
  status: 'PENDING',
  transactionId: null,
  failureReason: null,
  expiresAt: '2026-11-21T04:49:09.123Z',
  createdAt: '2026-11-21T04:44:09.123Z',
};

/** A payout as the ledger creates it. */
export const PAYOUT_VIEW: TransactionView = {
  object: 'transaction',
  transactionId: 'txn_8a1c3e5f7b9d4f2a6c8e0b2d4f6a8c0e',
  type: 'FIAT_PAYOUT',
  status: 'EXPECTED',
  accountId: ACCOUNT_ID,
  amount: '25.00',
  asset: 'USD',
  chainName: null,
  beneficiaryId: BENEFICIARY_ID,
  quoteId: null,
  fee: '1.00',
  feeAsset: 'USD',
  counterpartyOrganizationId: null,
  reference: 'Invoice 117',
  failureReason: null,
  destination: {
    rail: 'FIAT',
    nickname: 'Supplier (USD)',
    name: 'Acme Supplies Inc',
    bank: { bankName: 'JPMorgan Chase', method: 'WIRE', currency: 'USD', swiftCode: 'CHASUS33', bankCountry: 'US', routingNumber: null, accountNumberLast4: '6789' },
    crypto: null,
  },
  createdAt: '2026-11-27T09:00:00.000Z',
  updatedAt: '2026-11-27T09:00:00.000Z',
};
