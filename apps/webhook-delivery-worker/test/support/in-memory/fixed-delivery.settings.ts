import { DeliverySettings } from '../../../src/application/ports/delivery-settings';
import { DEFAULT_DISABLE_RULES, type DisableRules } from '../../../src/domain/endpoint-health';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../../../src/domain/retry-schedule';

export interface DeliverySettingsOverrides {
  retrySchedule?: readonly number[];
  disableRules?: Partial<DisableRules>;
  leaseMs?: number;
  holder?: string;
  sweepGraceMs?: number;
}

/** The worker's tunables as a test sets them: the production defaults unless overridden. */
export class FixedDeliverySettings extends DeliverySettings {
  readonly retrySchedule: readonly number[];
  readonly disableRules: DisableRules;
  readonly leaseMs: number;
  readonly holder: string;
  readonly sweepGraceMs: number;

  constructor(overrides: DeliverySettingsOverrides = {}) {
    super();
    this.retrySchedule = overrides.retrySchedule ?? DEFAULT_RETRY_SCHEDULE_MS;
    this.disableRules = { ...DEFAULT_DISABLE_RULES, ...overrides.disableRules };
    this.leaseMs = overrides.leaseMs ?? 30_000;
    this.holder = overrides.holder ?? 'worker-a';
    this.sweepGraceMs = overrides.sweepGraceMs ?? 0;
  }
}
