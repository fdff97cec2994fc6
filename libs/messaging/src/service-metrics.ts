import {
  commandRoundTripHistogram,
  eventsDeadLetteredCounter,
  jobDurationHistogram,
  jobOutcomesCounter,
  outboxMetrics,
  dbPoolGauge,
  queueAgeGauge,
  queueDepthGauge,
  type MetricsRegistry,
  type PoolUsage,
} from '@pfs/platform';
import { commandLane, commandQueueName, subscribedEventTypes, type ServiceName } from '@pfs/contracts';
import type { CommandBus } from './command-bus';
import type { CommandOutcomeListener } from './command-consumer';
import type { EventOutcomeListener } from './event-consumer';
import type { OutboxRelay } from './outbox-relay';
import type { QueueDepthReader } from './queue-depth';

export interface ServiceInstruments {
  commands: { queueNameOf(job: string): string; onOutcome?: CommandOutcomeListener };
  events?: {
    readonly queueName: string;
    readonly subscriber: ServiceName;
    readonly hasSubscriptions: boolean;
    onOutcome?: EventOutcomeListener;
    onDeadLettered?: (event: string) => void;
  };
  relay: OutboxRelay;
  /** The queues this process consumes, read at scrape time. */
  depth: QueueDepthReader;
  /** The process's PostgreSQL pool, read at scrape time. */
  pool?: () => PoolUsage | undefined;
}

/**
 * Wires a service's messaging to its registry: job outcomes and durations from the consumers'
 * hooks, dead-lettered events, queue depth and outbox lag read when scraped, published events
 * from the relay.
 */
export function instrumentService(registry: MetricsRegistry, parts: ServiceInstruments): void {
  const outcomes = jobOutcomesCounter(registry);
  const durations = jobDurationHistogram(registry);
  const commands = parts.commands;
  commands.onOutcome = (outcome, job, durationMs) => {
    const queue = commands.queueNameOf(job);
    outcomes.inc({ queue, job, outcome });
    durations.observe({ queue, job, outcome }, durationMs / 1000);
  };
  const events = parts.events;
  if (events?.hasSubscriptions) {
    const eventQueue = events.queueName;
    events.onOutcome = (outcome, job, durationMs) => {
      outcomes.inc({ queue: eventQueue, job, outcome });
      durations.observe({ queue: eventQueue, job, outcome }, durationMs / 1000);
    };
    const deadLettered = eventsDeadLetteredCounter(registry);
    const subscriber = events.subscriber;
    // Every subscribed type starts at 0, so an alert on an increase sees the first one.
    for (const event of subscribedEventTypes(subscriber)) deadLettered.inc({ subscriber, event }, 0);
    events.onDeadLettered = (event) => deadLettered.inc({ subscriber, event });
  }
  queueDepthGauge(registry, () => parts.depth.read());
  queueAgeGauge(registry, () => parts.depth.ages());
  if (parts.pool) dbPoolGauge(registry, parts.pool);
  const outbox = outboxMetrics(registry, parts.relay.schema, () => parts.relay.backlog());
  parts.relay.onPublished = (count) => outbox.published.inc({ schema: parts.relay.schema }, count);
}

/** Sender side: the round trip of every command the bus sends, by queue, command and outcome. */
export function instrumentCommandBus(registry: MetricsRegistry, bus: CommandBus): void {
  const roundTrips = commandRoundTripHistogram(registry);
  bus.onRoundTrip = (service, command, outcome, durationMs) => {
    roundTrips.observe({ queue: commandQueueName(service, commandLane(service, command)), command, outcome }, durationMs / 1000);
  };
}
