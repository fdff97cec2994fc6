import type { Big, PayableBeneficiaryView, PayoutRail as RailName } from '@pfs/contracts';
import type { Transaction } from '../../domain/transaction';

/** What a rail is asked to send: the beneficiary's details as the beneficiary service gave them (never logged: a bank's full account number is in them). */
export interface PayoutInstruction {
  rail: RailName;
  asset: string;
  amount: Big;
  beneficiary: PayableBeneficiaryView;
  reference: string | null;
}

/** The rail's answer on a LOCKED payout: it settles (COMPLETED) or it declines it with a reason (DECLINED). */
export type RailVerdict = { settles: true } | { settles: false; reason: string };

/**
 * A payment rail (a bank network, a chain), which is outside the system: one adapter per rail.
 * The ledger keeps the money side (the hold and every move are its journal entries); the rail
 * only answers whether it takes a payout and, once the payout is LOCKED, how it ends.
 */
export abstract class PayoutRail {
  abstract readonly rail: RailName;
  /**
   * Before anything is held: a send the rail refuses outright throws its domain error
   * (`chain_send_failed` on a chain), so the payout is never created.
   */
  abstract submit(instruction: PayoutInstruction): Promise<void>;
  /** How a LOCKED payout of this rail ends when it settles by itself. */
  abstract verdict(payout: Transaction): Promise<RailVerdict>;
}

/** The rails by name: what the payout use cases are given. */
export class PayoutRails {
  private readonly byName: ReadonlyMap<RailName, PayoutRail>;

  constructor(rails: readonly PayoutRail[]) {
    this.byName = new Map(rails.map((rail) => [rail.rail, rail]));
  }

  for(rail: RailName): PayoutRail {
    const adapter = this.byName.get(rail);
    if (!adapter) throw new Error(`no adapter for the ${rail} payout rail`);
    return adapter;
  }
}
