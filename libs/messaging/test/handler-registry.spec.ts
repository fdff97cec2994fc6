import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { commandDefinition, commandNames, type CommandService, type EventEnvelope, type PingResult } from '@pfs/contracts';
import { createPrismaClient, PrismaTransactionHost, PrismaUnitOfWork } from '@pfs/persistence';
import { createLogger, readPlatformConfig } from '@pfs/platform';
import { isolateQueues } from '@pfs/testing';
import {
  buildHandlerRegistry,
  CommandConsumer,
  commandConsumerProvider,
  EventConsumer,
  PingUseCase,
  PrismaProcessedEventLog,
  ServiceRuntimeModule,
  type AnyCommandHandler,
  type CommandHandlerTable,
  type AnyEventHandler,
} from '../src';
import { PassThroughCommandLog } from './support/ping-only-handlers';

isolateQueues('msg-registry');

// A consumer must refuse to start unless every declared job has exactly one handler and every
// handler answers a declared job; the error names the job so the fix is obvious.

const config = readPlatformConfig();
const logger = createLogger('messaging-test', 'silent');
const options = { redisUrl: config.redisUrl, prefix: config.queuePrefix, logger };
const prisma = createPrismaClient({ databaseUrl: config.databaseUrl, poolSize: 1 });
const unitOfWork = new PrismaUnitOfWork(new PrismaTransactionHost(prisma));
const inbox = new PrismaProcessedEventLog(new PrismaTransactionHost(prisma), 'ledger');

function commandHandler<S extends CommandService>(command: string): AnyCommandHandler<S> {
  return { command, execute: async () => ({ service: 'ledger', time: '' }) as PingResult } as unknown as AnyCommandHandler<S>;
}

function eventHandler(event: string): AnyEventHandler {
  return { event, handle: async (_event: EventEnvelope) => undefined } as unknown as AnyEventHandler;
}

afterAll(async () => {
  await prisma.$disconnect();
});

describe('buildHandlerRegistry', () => {
  const named = (name: string) => ({ name });

  it('maps each declared name to its handler', () => {
    const a = named('a.run');
    const b = named('b.run');
    const registry = buildHandlerRegistry('demo-commands', ['a.run', 'b.run'], [a, b], (h) => h.name);
    expect([...registry.entries()]).toEqual([
      ['a.run', a],
      ['b.run', b],
    ]);
  });

  it('refuses a declared name without a handler, naming it', () => {
    expect(() => buildHandlerRegistry('demo-commands', ['a.run', 'b.run'], [named('a.run')], (h) => h.name)).toThrow(
      'refusing to consume demo-commands: "b.run" has no handler',
    );
  });

  it('refuses a name with two handlers, naming it', () => {
    expect(() => buildHandlerRegistry('demo-commands', ['a.run'], [named('a.run'), named('a.run')], (h) => h.name)).toThrow(
      'refusing to consume demo-commands: "a.run" has two handlers',
    );
  });

  it('refuses a handler for a name the contract does not declare, naming it', () => {
    expect(() => buildHandlerRegistry('demo-commands', ['a.run'], [named('a.run'), named('c.run')], (h) => h.name)).toThrow(
      'refusing to consume demo-commands: "c.run" is not a job of demo-commands',
    );
  });

  it('lists every problem at once', () => {
    expect(() => buildHandlerRegistry('demo-commands', ['a.run', 'b.run'], [named('c.run')], (h) => h.name)).toThrow(
      'refusing to consume demo-commands: "c.run" is not a job of demo-commands; "a.run" has no handler; "b.run" has no handler',
    );
  });
});

describe('CommandConsumer', () => {
  it('refuses a queue with a job left unhandled', () => {
    expect(() => new CommandConsumer('ledger', [commandHandler('system.ping'), commandHandler('accounts.get')], options)).toThrow(
      'refusing to consume ledger commands: "accounts.list" has no handler',
    );
  });

  it('refuses two handlers for one job', () => {
    expect(() => new CommandConsumer('quote', [commandHandler('system.ping'), commandHandler('system.ping')], options)).toThrow(
      '"system.ping" has two handlers',
    );
  });

  it('refuses a handler for a job its queue does not have', () => {
    expect(() => new CommandConsumer('quote', [commandHandler('system.ping'), commandHandler('accounts.get')], options)).toThrow(
      '"accounts.get" is not a job of quote commands',
    );
  });

  it('accepts exactly one handler per declared job', async () => {
    const consumer = new CommandConsumer('quote', commandNames('quote').map((name) => commandHandler<'quote'>(name)), { ...options, commandLog: new PassThroughCommandLog() });
    await consumer.close();
  });

  it('refuses a queue with mutations but no command log', () => {
    const ledger = commandNames('ledger').map((name) => commandHandler<'ledger'>(name));
    const mutations = commandNames('ledger').filter((name) => commandDefinition('ledger', name)?.kind === 'mutation');
    expect(mutations).toEqual(expect.arrayContaining(['funding-methods.provision', 'faucet.credit']));
    expect(() => new CommandConsumer('ledger', ledger, options)).toThrow(
      `refusing to consume ledger commands: its mutations (${mutations.join(', ')}) need a command log`,
    );
  });

  it('stops a service module from starting when a use case is missing from its table', async () => {
    @Injectable()
    class GetAccountUseCase {
      async execute(): Promise<never> {
        throw new Error('unused');
      }
    }
    // The compiler refuses this table (accounts.list and the funding-methods commands are
    // missing); the cast stands for a table built at run time, which the consumer still checks.
    const incomplete = { 'system.ping': PingUseCase, 'accounts.get': GetAccountUseCase } as unknown as CommandHandlerTable<'ledger'>;
    @Module({
      imports: [ServiceRuntimeModule.forService({ service: 'ledger', schema: 'ledger' })],
      providers: [...commandConsumerProvider('ledger', incomplete)],
    })
    class IncompleteLedgerModule {}

    await expect(NestFactory.createApplicationContext(IncompleteLedgerModule, { logger: false, abortOnError: false })).rejects.toThrow(
      'refusing to consume ledger commands: "accounts.list" has no handler',
    );
  });
});

describe('EventConsumer', () => {
  it('refuses a subscribed event without a handler, naming it', () => {
    expect(() => new EventConsumer('ledger', [], unitOfWork, inbox, options)).toThrow(
      'refusing to consume ledger-events: "organization.created" has no handler; "organization.standing.updated" has no handler',
    );
  });

  it('refuses two handlers for one event', () => {
    expect(
      () => new EventConsumer('ledger', [eventHandler('organization.created'), eventHandler('organization.created')], unitOfWork, inbox, options),
    ).toThrow('"organization.created" has two handlers');
  });

  it('refuses a handler for an event the service does not subscribe to', () => {
    expect(() => new EventConsumer('quote', [eventHandler('organization.created')], unitOfWork, inbox, options)).toThrow(
      '"organization.created" is not a job of quote-events',
    );
  });

  it('refuses a handler for an event type that does not exist', () => {
    expect(
      () => new EventConsumer('ledger', [eventHandler('organization.created'), eventHandler('organization.deleted')], unitOfWork, inbox, options),
    ).toThrow('"organization.deleted" is not a job of ledger-events');
  });
});
