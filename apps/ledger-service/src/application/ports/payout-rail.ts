import type { Big, PayableBeneficiaryView, PayoutDestinationView, PayoutRail as RailName, ServiceEnvironment } from '@pfs/contracts';
import { PayoutRailUnavailableError } from '../../domain/ledger-errors';
import type { Transaction } from '../../domain/transaction';

/**
 * What a rail is asked to send, once, when the payout is created: the destination the payout
 * keeps, and the beneficiary's details as the beneficiary service gave them in the same answer
 * (a bank's full account number is in them: never logged, never stored by the ledger). A real
 * rail takes the instruction here; every later step (`verdict`) sees only the payout and its
 * stored destination, so a later change of the beneficiary never redirects the payout.
 */
export interface PayoutInstruction {
  rail: RailName;
  asset: string;
  amount: Big;
  destination: PayoutDestinationView;
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
  /** The adapter's name, as the startup log shows it (e.g. `sandbox-chains`). */
  abstract readonly adapter: string;
  /**
   * Where this adapter moves money. The sandbox rails move payouts only where the sandbox's
   * settlement and drive routes exist; bound in production they would hold money nothing can
   * ever move, so payouts there are refused until a real rail's adapter replaces them.
   */
  abstract readonly environments: readonly ServiceEnvironment[];

  movesMoneyIn(environment: ServiceEnvironment): boolean {
    return this.environments.includes(environment);
  }

  /**
   * Before anything is held: a send the rail refuses outright throws its domain error
   * (`chain_send_failed` on a chain), so the payout is never created.
   */
  abstract submit(instruction: PayoutInstruction): Promise<void>;
  /** How a LOCKED payout of this rail ends when it settles by itself: from the payout and its stored destination only. */
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

  /** The adapter of a new payout: `service_not_enabled` when it cannot move money in `environment`. */
  forPayoutIn(rail: RailName, environment: ServiceEnvironment): PayoutRail {
    const adapter = this.for(rail);
    if (!adapter.movesMoneyIn(environment)) throw new PayoutRailUnavailableError(rail);
    return adapter;
  }
}
