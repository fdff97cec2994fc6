import { findAsset, toAmountString, type AccountEntryView, type TransactionView } from '@pfs/contracts';
import type { AccountEntry } from '../domain/account-entry';
import type { Transaction } from '../domain/transaction';

function scaleOf(asset: string): number {
  return findAsset(asset)?.scale ?? 18;
}

export function presentTransaction(transaction: Transaction): TransactionView {
  const t = transaction.props;
  return {
    object: 'transaction',
    transactionId: t.id,
    type: t.type,
    status: t.status,
    accountId: t.accountId,
    amount: toAmountString(t.amount, scaleOf(t.asset)),
    asset: t.asset,
    chainName: t.chainName,
    beneficiaryId: t.beneficiaryId,
    quoteId: t.quoteId,
    fee: t.fee && t.feeAsset ? toAmountString(t.fee, scaleOf(t.feeAsset)) : null,
    feeAsset: t.feeAsset,
    counterpartyOrganizationId: t.counterpartyOrganizationId,
    reference: t.reference,
    failureReason: t.failureReason,
    destination: t.destination,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

export function presentAccountEntry(entry: AccountEntry): AccountEntryView {
  const scale = scaleOf(entry.asset);
  return {
    object: 'account_entry',
    journalId: entry.journalId,
    transactionId: entry.transactionId,
    accountId: entry.accountId,
    asset: entry.asset,
    amount: toAmountString(entry.amount, scale),
    balanceAfter: toAmountString(entry.balanceAfter, scale),
    createdAt: entry.createdAt.toISOString(),
  };
}
