import type { Big, PayableBeneficiaryView } from '@pfs/contracts';
import { customer, JournalEntry } from './journal-entry';
import { LedgerRequestError } from './ledger-errors';
import { assertPayable } from './payout-beneficiary';
import { Transaction, type StatusChange } from './transaction';

/** One side of an internal transfer: an organization and the account its money leaves or reaches. */
export interface TransferParty {
  organizationId: string;
  accountId: string;
}

/**
 * An internal (servicenet) transfer between two organizations, created and
 * completed in one step (EXPECTED → COMPLETED, like a trade): one INTERNAL_TRANSFER per side,
 * each its organization's own (the sender's with role SENDER and the beneficiary, the receiver's
 * with role RECEIVER), each naming the other organization as counterparty and only its own
 * account; ONE journal entry debits the sender's account and credits the receiver's.
 */
export function internalTransfer(input: {
  sentId: string;
  receivedId: string;
  sender: TransferParty;
  receiver: TransferParty;
  beneficiaryId: string;
  asset: string;
  amount: Big;
  reference: string | null;
  journalId: string;
  now: Date;
}): { sent: StatusChange; received: StatusChange; entry: JournalEntry } {
  const { sender, receiver, now } = input;
  if (sender.organizationId === receiver.organizationId) throw new Error('an internal transfer is between two organizations');
  const side = (id: string, party: TransferParty, counterparty: TransferParty, role: 'SENDER' | 'RECEIVER', beneficiaryId: string | null): StatusChange => ({
    transaction: Transaction.restore({
      id,
      organizationId: party.organizationId,
      accountId: party.accountId,
      type: 'INTERNAL_TRANSFER',
      status: 'COMPLETED',
      role,
      asset: input.asset,
      amount: input.amount,
      chainName: null,
      beneficiaryId,
      quoteId: null,
      fee: null,
      feeAsset: null,
      counterpartyOrganizationId: counterparty.organizationId,
      reference: input.reference,
      failureReason: null,
      destination: null,
      createdAt: now,
      updatedAt: now,
    }),
    previousStatus: 'EXPECTED',
    entry: null,
  });
  const sent = side(input.sentId, sender, receiver, 'SENDER', input.beneficiaryId);
  const received = side(input.receivedId, receiver, sender, 'RECEIVER', null);
  const entry = JournalEntry.of(input.journalId, 'INTERNAL_TRANSFER:COMPLETED', input.sentId, [
    { account: customer(sender.accountId), asset: input.asset, amount: input.amount.neg() },
    // The receiver's line is its own RECEIVER transaction, the one its statement can open.
    { account: customer(receiver.accountId), asset: input.asset, amount: input.amount, transactionId: input.receivedId },
  ]);
  return { sent: { ...sent, entry }, received, entry };
}

/**
 * The receiving organization of a transfer to `beneficiary`: a SERVICENET beneficiary, ACTIVE
 * (BLOCKED is `beneficiary_blocked`, INACTIVE and ARCHIVED `invalid_request`, as for payouts).
 */
export function transferReceiver(beneficiary: PayableBeneficiaryView): string {
  const id = beneficiary.beneficiaryId;
  if (beneficiary.type !== 'SERVICENET' || !beneficiary.servicenet) {
    throw new LedgerRequestError(`beneficiaryId: beneficiary ${id} is a ${beneficiary.type} beneficiary; a transfer needs a SERVICENET one (POST /v1/beneficiaries/servicenet).`);
  }
  // Paid only while ACTIVE, as a payout's; its account is checked with the paying account's (assertBeneficiaryOfAccount).
  assertPayable(beneficiary);
  return beneficiary.servicenet.organizationId;
}
