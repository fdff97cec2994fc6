import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { positiveInt } from '@pfs/platform';
import ms from 'ms';
import { DeliverySettings } from './application/ports/delivery-settings';
import { DEFAULT_DISABLE_RULES, type DisableRules } from './domain/endpoint-health';
import { DEFAULT_RETRY_SCHEDULE_MS } from './domain/retry-schedule';

/** api-decisions §8: each attempt times out after 15 s (connect, send and answer). */
export const ATTEMPT_TIMEOUT_MS = 15_000;

/** A duration such as `200ms`, `5s`, `2h`, `5d` (the `ms` package's format), or a number of ms. */
export function duration(text: string, name: string): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text.trim()) : ms(text.trim() as ms.StringValue);
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) throw new Error(`${name}: "${text}" is not a duration such as 500ms, 5s, 30m, 2h or 5d`);
  return value;
}

/** The worker's settings from the environment (README: configuration). */
export class EnvDeliverySettings extends DeliverySettings {
  readonly retrySchedule: readonly number[];
  readonly disableRules: DisableRules;
  // Longer than an attempt can last, so a live attempt keeps its delivery; a dead one frees it soon after.
  readonly leaseMs = ATTEMPT_TIMEOUT_MS + 5_000;
  readonly holder = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  readonly concurrency: number;
  readonly perEndpoint: number;
  readonly sweepIntervalMs: number;
  readonly sweepGraceMs: number;
  readonly endpointCacheMs: number;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    super();
    const schedule = env.WEBHOOK_RETRY_SCHEDULE?.trim();
    this.retrySchedule = schedule ? schedule.split(',').map((step) => duration(step, 'WEBHOOK_RETRY_SCHEDULE')) : DEFAULT_RETRY_SCHEDULE_MS;
    this.disableRules = {
      afterMs: env.WEBHOOK_DISABLE_AFTER ? duration(env.WEBHOOK_DISABLE_AFTER, 'WEBHOOK_DISABLE_AFTER') : DEFAULT_DISABLE_RULES.afterMs,
      minFailures: positiveInt(env.WEBHOOK_DISABLE_MIN_FAILURES, DEFAULT_DISABLE_RULES.minFailures, 'WEBHOOK_DISABLE_MIN_FAILURES'),
    };
    this.concurrency = positiveInt(env.WEBHOOK_WORKER_CONCURRENCY, 64, 'WEBHOOK_WORKER_CONCURRENCY');
    this.perEndpoint = positiveInt(env.WEBHOOK_ENDPOINT_CONCURRENCY, 4, 'WEBHOOK_ENDPOINT_CONCURRENCY');
    this.sweepIntervalMs = positiveInt(env.WEBHOOK_SWEEP_INTERVAL_MS, 10_000, 'WEBHOOK_SWEEP_INTERVAL_MS');
    // One pass's interval: a job still queued is taken well within it, a lost one waits at most two.
    this.sweepGraceMs = this.sweepIntervalMs;
    this.endpointCacheMs = env.WEBHOOK_ENDPOINT_CACHE_MS === '0' ? 0 : positiveInt(env.WEBHOOK_ENDPOINT_CACHE_MS, 1000, 'WEBHOOK_ENDPOINT_CACHE_MS');
  }
}
