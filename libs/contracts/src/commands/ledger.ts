import { z } from 'zod';
import type { AccountView, FundingMethodView, PageView } from '../views';
import { mutation, pageRequestSchema, query } from './command-definition';
import { systemCommands } from './system';

/**
 * The ledger's queue. Each command's use case is
 * `apps/ledger-service/src/application/use-cases/<verb>-<resource>/`.
 */
export const ledgerCommands = {
  ...systemCommands,
  'accounts.list': query(z.object({ organizationId: z.string(), page: pageRequestSchema })).returns<PageView<AccountView>>(),
  'accounts.get': query(z.object({ organizationId: z.string(), accountId: z.string() })).returns<AccountView>(),
  /**
   * Provisions the receiving methods of an asset on an account of the organization (its primary
   * account when `accountId` is null), or returns those already provisioned.
   */
  'funding-methods.provision': mutation(
    z.object({ organizationId: z.string(), accountId: z.string().nullable(), asset: z.string() }),
  ).returns<FundingMethodView[]>(),
  /** A method on one of the organization's accounts; `funding_method_not_found` for anything else. */
  'funding-methods.get': query(z.object({ organizationId: z.string(), fundingMethodId: z.string() })).returns<FundingMethodView>(),
} as const;
