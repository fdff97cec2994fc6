import { z } from 'zod';
import { DECIMAL_STRING } from '../money';
import {
  PAYOUT_RAILS,
  TRANSACTION_ACTIONS,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  type AccountEntryView,
  type AccountView,
  type AccountHolderView,
  type FundingMethodView,
  type PageView,
  type PayoutFeeView,
  type TradePostingView,
  type TransactionView,
} from '../views';
import { mutation, pageRequestSchema, query } from './command-definition';
import { systemCommands } from './system';

/** A positive decimal string (api-decisions §1); the asset's scale is the ledger's to check. */
const amount = z.string().regex(DECIMAL_STRING);

/**
 * The ledger's queue. Each command's use case is
 * `apps/ledger-service/src/application/use-cases/<verb>-<resource>/`.
 */
export const ledgerCommands = {
  ...systemCommands,
  'accounts.list': query(z.object({ organizationId: z.string(), page: pageRequestSchema })).returns<PageView<AccountView>>(),
  'accounts.get': query(z.object({ organizationId: z.string(), accountId: z.string() })).returns<AccountView>(),
  /** Opens a further (non-primary) account of the organization. */
  'accounts.open': mutation(
    z.object({ organizationId: z.string(), name: z.string(), description: z.string().nullable() }),
  ).returns<AccountView>(),
  /**
   * Opens the organization's primary account under the id the organization service chose, or
   * finds it open (`opened: false`). The organization service sends it after storing a new
   * organization and before answering, so the account is usable in the very next request; its
   * command id is derived from the organization id, so a repeat changes nothing.
   * `organization.created` opens the same account too, as the repair when this did not get through.
   */
  'accounts.open-primary': mutation(z.object({ organizationId: z.string(), accountId: z.string() })).returns<{ opened: boolean }>(),
  /** Renames an account or changes its description; a field left out is kept. */
  'accounts.update': mutation(
    z.object({
      organizationId: z.string(),
      accountId: z.string(),
      name: z.string().optional(),
      description: z.string().nullable().optional(),
    }),
  ).returns<AccountView>(),
  /** The account's journal lines, newest first: a statement to reconcile line by line. */
  'account-entries.list': query(z.object({ organizationId: z.string(), accountId: z.string(), page: pageRequestSchema })).returns<
    PageView<AccountEntryView>
  >(),
  /**
   * Provisions the receiving methods of an asset on an account of the organization (its primary
   * account when `accountId` is null), or returns those already provisioned.
   */
  'funding-methods.provision': mutation(
    z.object({ organizationId: z.string(), accountId: z.string().nullable(), asset: z.string() }),
  ).returns<FundingMethodView[]>(),
  /** A method on one of the organization's accounts; `funding_method_not_found` for anything else. */
  'funding-methods.get': query(z.object({ organizationId: z.string(), fundingMethodId: z.string() })).returns<FundingMethodView>(),
  /** Sandbox: a simulated crypto deposit to the account's address on the chain, credited at once (spec 4.6). */
  'faucet.credit': mutation(
    z.object({ organizationId: z.string(), accountId: z.string(), asset: z.string(), amount, chainName: z.string() }),
    // Every credit is written with its claim.
    { replay: 'on-claim' },
  ).returns<TransactionView>(),
  /**
   * POST /v1/payouts/{fiat|crypto}: a payout from the account to a beneficiary of the
   * organization, which the ledger asks the beneficiary service about (type, status, currency,
   * chain); the rail may refuse it outright (`chain_send_failed`, nothing held). Created EXPECTED
   * with amount + the rail's fee held at once (`insufficient_funds` when short, nothing held).
   */
  'payouts.create': mutation(
    z.object({
      organizationId: z.string(),
      accountId: z.string(),
      rail: z.enum(PAYOUT_RAILS),
      asset: z.string(),
      amount,
      beneficiaryId: z.string(),
      reference: z.string().nullable(),
    }),
  ).returns<TransactionView>(),
  'transactions.list': query(
    z.object({
      organizationId: z.string(),
      page: pageRequestSchema,
      filters: z.object({
        accountId: z.string().optional(),
        type: z.enum(TRANSACTION_TYPES).optional(),
        status: z.enum(TRANSACTION_STATUSES).optional(),
        createdAfter: z.string().optional(),
        createdBefore: z.string().optional(),
      }),
    }),
  ).returns<PageView<TransactionView>>(),
  /** One of the organization's transactions; `transaction_not_found` for anything else. */
  'transactions.get': query(z.object({ organizationId: z.string(), transactionId: z.string() })).returns<TransactionView>(),
  /** Sandbox: moves a transaction along its state machine; an illegal move is `invalid_request` naming the current status. */
  'transactions.advance': mutation(
    z.object({ organizationId: z.string(), transactionId: z.string(), action: z.enum(TRANSACTION_ACTIONS) }),
  ).returns<TransactionView>(),
  /** The payout fee per rail and asset, the schedule payouts are charged by (GET /v1/fees shows it beside the quote service's pricing). */
  'payout-fees.list': query(z.object({})).returns<PayoutFeeView[]>(),
  /** Which organization holds an account and its status, or null for an unknown account: the quote service's copy asks on a miss. */
  'account-holders.get': query(z.object({ accountId: z.string() })).returns<AccountHolderView | null>(),
  /** Executes a quote's trade as ONE journal entry; `quoteId` is the operation id: at most one trade per quote, ever. */
  'trades.post': mutation(
    z.object({
      organizationId: z.string(),
      accountId: z.string(),
      quoteId: z.string(),
      /** What the client sells (debited). */
      fromAsset: z.string(),
      fromAmount: amount,
      /** What the client receives (credited). */
      toAsset: z.string(),
      toAmount: amount,
      /** The spread fee in `fromAsset`, part of `fromAmount` ('0' allowed). */
      fee: z.string().regex(DECIMAL_STRING),
      /** The part of the fee, in `fromAsset`, for the client's creator, else its referrer ('0' allowed). */
      commission: z.string().regex(DECIMAL_STRING),
    }),
    // A trade is written with its claim; a quote already traded is answered its trade, as first.
    { replay: 'on-claim' },
  ).returns<TradePostingView>(),
  /** A quote's trade as posted, or null while it has none (or it is another organization's). */
  'trades.get': query(z.object({ organizationId: z.string(), quoteId: z.string() })).returns<TradePostingView | null>(),
  /**
   * An internal transfer to a SERVICENET beneficiary: one journal entry from the
   * account to the receiving organization's primary account, one INTERNAL_TRANSFER per side
   * (SENDER, RECEIVER), both COMPLETED at once, each with its event. Answers the sender's side.
   */
  'transfers.create': mutation(
    z.object({
      organizationId: z.string(),
      accountId: z.string(),
      beneficiaryId: z.string(),
      asset: z.string(),
      amount,
      reference: z.string().nullable(),
    }),
  ).returns<TransactionView>(),
} as const;
