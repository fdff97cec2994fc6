import { z } from 'zod';
import type { CommandDefinition, PayloadOf, ResultOf } from './command-definition';
import { beneficiaryCommands } from './beneficiary';
import { ledgerCommands } from './ledger';
import { organizationCommands } from './organization';
import { quoteCommands } from './quote';
import { webhookDeliveryCommands } from './webhook-delivery';
import { webhookDeliveryWorkerCommands } from './webhook-delivery-worker';

export * from './command-definition';
export { ON_BEHALF_OF_MODES, type OnBehalfOfMode } from './organization';
export type { PingResult } from './system';
export { WEBHOOK_DELIVERY_JOBS, WEBHOOK_DELIVERY_QUEUE, type DeliveryAttemptJob, type WebhookDeliveryJobName } from './webhook-delivery-worker';

/**
 * Every service's command queue, declared once: the payload and result types, the runtime
 * name lists and the payload validators all derive from these objects.
 */
export const COMMAND_CONTRACT = {
  organization: organizationCommands,
  ledger: ledgerCommands,
  quote: quoteCommands,
  beneficiary: beneficiaryCommands,
  'webhook-delivery': webhookDeliveryCommands,
  'webhook-delivery-worker': webhookDeliveryWorkerCommands,
} as const satisfies Record<string, Record<string, CommandDefinition>>;

export type CommandContract = typeof COMMAND_CONTRACT;
/** Services that own a command queue. */
export type CommandService = keyof CommandContract;
export type CommandName<S extends CommandService> = keyof CommandContract[S] & string;
export type CommandPayload<S extends CommandService, N extends CommandName<S>> = PayloadOf<CommandContract[S][N]>;
export type CommandResult<S extends CommandService, N extends CommandName<S>> = ResultOf<CommandContract[S][N]>;

/** The union of jobs on one service's command queue. */
export type CommandJobOf<S extends CommandService> = {
  [N in CommandName<S>]: { name: N; payload: CommandPayload<S, N> };
}[CommandName<S>];

/** Runtime list of job names per queue, derived from the contract. */
export function commandNames<S extends CommandService>(service: S): CommandName<S>[] {
  return Object.keys(COMMAND_CONTRACT[service]) as CommandName<S>[];
}

export function commandDefinition<S extends CommandService>(service: S, name: string): CommandDefinition | undefined {
  const catalog: Record<string, CommandDefinition> = COMMAND_CONTRACT[service];
  return Object.hasOwn(catalog, name) ? catalog[name] : undefined;
}

/**
 * Each service consumes its commands on two lanes, each a queue with workers of its own:
 * mutations on `<service>-commands`, queries on `<service>-queries`. A mutation may wait on
 * another service's query (a payout asks the beneficiary service for the payee); a query never
 * waits on a mutation. With one queue, a service whose workers were all busy with mutations
 * waiting on a second service, while that service's were busy waiting on the first, would drain
 * only as deadlines fired; on separate lanes the questions are always answered.
 */
export type CommandLane = 'mutations' | 'queries';

export function commandLane(service: CommandService, name: string): CommandLane {
  return commandDefinition(service, name)?.kind === 'mutation' ? 'mutations' : 'queries';
}

export function commandQueueName(service: CommandService, lane: CommandLane): string {
  return lane === 'mutations' ? `${service}-commands` : `${service}-queries`;
}

/** The lanes a service has commands on (every service has queries: `system.ping` at least). */
export function commandLanes(service: CommandService): CommandLane[] {
  const lanes = new Set(commandNames(service).map((name) => commandLane(service, name)));
  return (['mutations', 'queries'] as const).filter((lane) => lanes.has(lane));
}

/**
 * Checks a consumed command's payload against its schema. Unknown fields are dropped, so a
 * newer sender that adds optional fields stays readable; anything else is a version skew.
 */
export function parseCommandPayload(
  service: CommandService,
  name: string,
  payload: unknown,
): { ok: true; payload: unknown } | { ok: false; problem: string } {
  const definition = commandDefinition(service, name);
  if (!definition) return { ok: false, problem: `"${name}" is not a command of the ${service} service` };
  const parsed = definition.payload.safeParse(payload);
  if (!parsed.success) return { ok: false, problem: `${name}: ${z.prettifyError(parsed.error)}` };
  return { ok: true, payload: parsed.data };
}
