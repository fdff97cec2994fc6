import { Big, type PayableBeneficiaryView } from '@pfs/contracts';
import { internalTransfer, transferReceiver } from './internal-transfer';

const NOW = new Date('2026-11-27T10:00:00.000Z');
const sender = { organizationId: 'org_a', accountId: 'acct_b_sender' };
const receiver = { organizationId: 'org_b', accountId: 'acct_a_receiver' };

describe('internalTransfer', () => {
  const posted = () =>
    internalTransfer({ sentId: 'txn_1', receivedId: 'txn_2', sender, receiver, beneficiaryId: 'bene_1', asset: 'USDC', amount: new Big('12.5'), reference: 'Inv 7', journalId: 'jrnl_1', now: NOW });

  it('gives each side its own COMPLETED INTERNAL_TRANSFER, naming the other organization and only its own account', () => {
    const { sent, received } = posted();
    expect(sent.transaction.props).toMatchObject({ id: 'txn_1', organizationId: 'org_a', accountId: 'acct_b_sender', role: 'SENDER', status: 'COMPLETED', beneficiaryId: 'bene_1', counterpartyOrganizationId: 'org_b', reference: 'Inv 7', fee: null });
    expect(received.transaction.props).toMatchObject({ id: 'txn_2', organizationId: 'org_b', accountId: 'acct_a_receiver', role: 'RECEIVER', status: 'COMPLETED', beneficiaryId: null, counterpartyOrganizationId: 'org_a' });
    expect([sent.previousStatus, received.previousStatus]).toEqual(['EXPECTED', 'EXPECTED']);
  });

  it('is one balanced entry whose customer lines lock in account order, whichever way the money goes', () => {
    const { entry } = posted();
    expect(entry.lines.map((line) => [line.account, line.amount.toFixed()])).toEqual([
      [{ kind: 'customer', accountId: 'acct_b_sender' }, '-12.5'],
      [{ kind: 'customer', accountId: 'acct_a_receiver' }, '12.5'],
    ]);
    // Sorted by account id: the receiver's row (acct_a…) before the sender's (acct_b…), as for a transfer the other way.
    expect(entry.customerLines().map((line) => line.account.accountId)).toEqual(['acct_a_receiver', 'acct_b_sender']);
    const back = internalTransfer({ sentId: 'txn_3', receivedId: 'txn_4', sender: receiver, receiver: sender, beneficiaryId: 'bene_2', asset: 'USDC', amount: new Big('1'), reference: null, journalId: 'jrnl_2', now: NOW });
    expect(back.entry.customerLines().map((line) => line.account.accountId)).toEqual(['acct_a_receiver', 'acct_b_sender']);
  });

  it('puts each side’s line on its own transaction: the receiver’s statement names its RECEIVER transaction, not the sender’s', () => {
    const { entry } = posted();
    expect(entry.transactionId).toBe('txn_1');
    expect(entry.customerLines().map((line) => [line.account.accountId, line.transactionId])).toEqual([
      ['acct_a_receiver', 'txn_2'],
      ['acct_b_sender', 'txn_1'],
    ]);
  });

  it('refuses a transfer within one organization (a bug upstream)', () => {
    expect(() => internalTransfer({ sentId: 'txn_1', receivedId: 'txn_2', sender, receiver: { ...receiver, organizationId: 'org_a' }, beneficiaryId: 'bene_1', asset: 'USDC', amount: new Big('1'), reference: null, journalId: 'j', now: NOW })).toThrow(
      'an internal transfer is between two organizations',
    );
  });
});

describe('transferReceiver', () => {
  const payee = (overrides: Partial<PayableBeneficiaryView> = {}): PayableBeneficiaryView => ({
    beneficiaryId: 'bene_1',
    organizationId: 'org_a',
    accountId: 'acct_1',
    type: 'SERVICENET',
    status: 'ACTIVE',
    payable: true,
    nickname: 'B',
    entityType: null,
    name: null,
    country: null,
    bank: null,
    crypto: null,
    servicenet: { organizationId: 'org_b', handle: 'bee', organizationName: 'Bee Ltd' },
    ...overrides,
  });

  it('answers the receiving organization of an ACTIVE SERVICENET beneficiary', () => {
    expect(transferReceiver(payee())).toBe('org_b');
  });

  it.each([
    ['BLOCKED', { status: 'BLOCKED' as const, payable: false }, 'beneficiary_blocked'],
    ['ARCHIVED', { status: 'ARCHIVED' as const, payable: false }, 'invalid_request'],
    ['INACTIVE', { status: 'INACTIVE' as const, payable: false }, 'invalid_request'],
    ['a BANK one', { type: 'BANK' as const, servicenet: null }, 'invalid_request'],
  ])('refuses %s', (_label, overrides, code) => {
    expect(() => transferReceiver(payee(overrides))).toThrow(expect.objectContaining({ code }));
  });
});
