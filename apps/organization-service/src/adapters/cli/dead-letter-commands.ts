import { deadLetterQueueName, eventQueueName, EVENT_SUBSCRIBER_SERVICES, type ServiceName } from '@pfs/contracts';
import { createProducerConnection, DeadLetters, type DeadLetter } from '@pfs/messaging';
import { readPlatformConfig } from '@pfs/platform';
import type { CliInvocation } from './cli-arguments';

type DeadLetterInvocation = Extract<CliInvocation, { command: 'dead-letters:list' | 'dead-letters:replay' }>;

/** What the CLI prints; `failed` means the command was refused (exit code 1). */
export interface DeadLetterCommandResult {
  stdout: string;
  failed?: string;
}

/**
 * The dead-letter commands: Redis only (REDIS_URL, QUEUE_PREFIX, and EVENT_MAX_ATTEMPTS for the
 * attempts a replayed event gets). A producer connection, so a Redis that is down fails the
 * command after a few retries instead of hanging it.
 */
export async function runDeadLetterCommand(invocation: DeadLetterInvocation): Promise<DeadLetterCommandResult> {
  const config = readPlatformConfig();
  const connection = createProducerConnection(config.redisUrl, 'operator-cli');
  const deadLetters = new DeadLetters(connection, { prefix: config.queuePrefix, maxAttempts: config.eventMaxAttempts });
  try {
    return invocation.command === 'dead-letters:list' ? await list(deadLetters, invocation) : await replay(deadLetters, invocation);
  } finally {
    await deadLetters.close();
    connection.disconnect();
  }
}

async function list(deadLetters: DeadLetters, invocation: Extract<DeadLetterInvocation, { command: 'dead-letters:list' }>): Promise<DeadLetterCommandResult> {
  const services = invocation.service ? [invocation.service] : EVENT_SUBSCRIBER_SERVICES;
  const found = await Promise.all(services.map(async (service) => ({ service, ...(await deadLetters.list(service, invocation.limit)) })));
  if (invocation.json) {
    const document = found.map(({ service, total, letters }) => ({ service, total, deadLetters: letters.map(({ subscriber: _subscriber, ...letter }) => letter) }));
    return { stdout: `${JSON.stringify(document)}\n` };
  }
  // The readable form leaves the envelope out: it can carry personal data (--json has it).
  const lines = found.flatMap(({ service, total, letters }) => [
    `${service} (${deadLetterQueueName(service)}): ${total === 0 ? 'no dead letters' : `${total} dead letter${total === 1 ? '' : 's'}${letters.length < total ? `, the oldest ${letters.length} shown` : ''}`}`,
    ...letters.map(describe),
  ]);
  return { stdout: `${lines.join('\n')}\n` };
}

function describe(letter: DeadLetter): string {
  return `  ${letter.eventId}  ${letter.type}  failed ${letter.failedAt} after ${letter.attempts} attempt${letter.attempts === 1 ? '' : 's'}: ${letter.reason}`;
}

async function replay(deadLetters: DeadLetters, invocation: Extract<DeadLetterInvocation, { command: 'dead-letters:replay' }>): Promise<DeadLetterCommandResult> {
  const { service } = invocation;
  let result: { replayed: string[]; alreadyQueued: string[] };
  if (invocation.replay === 'all') {
    result = await deadLetters.replayAll(service);
  } else {
    const { eventId } = invocation.replay;
    const outcome = await deadLetters.replay(service, eventId);
    if (outcome === 'not-found') return { stdout: '', failed: `no dead letter ${eventId} in ${deadLetterQueueName(service)}` };
    if (outcome === 'already-queued') {
      return { stdout: '', failed: `${eventId} is still on ${eventQueueName(service)} (waiting, delayed or running): its dead letter stays; replay it once that job has finished` };
    }
    result = { replayed: [eventId], alreadyQueued: [] };
  }
  const { replayed, alreadyQueued } = result;
  if (invocation.json) return { stdout: `${JSON.stringify({ service, replayed, alreadyQueued })}\n` };
  return { stdout: summary(service, replayed, alreadyQueued) };
}

function summary(service: ServiceName, replayed: string[], alreadyQueued: string[]): string {
  const lines = [`Replayed ${replayed.length} event${replayed.length === 1 ? '' : 's'} to ${eventQueueName(service)}${replayed.length ? ':' : '.'}`, ...replayed.map((id) => `  ${id}`)];
  if (alreadyQueued.length) {
    lines.push(`Left ${alreadyQueued.length} dead letter${alreadyQueued.length === 1 ? '' : 's'} whose event is still queued (replay again once it has finished):`);
    lines.push(...alreadyQueued.map((id) => `  ${id}`));
  }
  return `${lines.join('\n')}\n`;
}
