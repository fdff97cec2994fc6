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

export function commandQueueName(service: CommandService): string {
  return `${service}-commands`;
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
  if (!definition) return { ok: false, problem: `"${name}" is not a command of ${commandQueueName(service)}` };
  const parsed = definition.payload.safeParse(payload);
  if (!parsed.success) return { ok: false, problem: `${name}: ${z.prettifyError(parsed.error)}` };
  return { ok: true, payload: parsed.data };
}
