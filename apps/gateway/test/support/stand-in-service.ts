import type { CommandService, ErrorCode } from '@pfs/contracts';
import { CommandBus, RemoteDomainError } from '@pfs/messaging';
import { expectError, type RequestOptions } from './http-client';
import { startServices, type CreatedOrganization, type ServiceProcesses } from './service-processes';
import { startTestGateway, type TestGateway } from './test-gateway';

export interface SentCommand {
  name: string;
  payload: Record<string, unknown>;
}

/**
 * Answers one or more services' commands in place of their processes (every other service's
 * still go to the real ones, authentication included), recording what the gateway sent: a
 * route's half of the contract, what it forwards and what it refuses before asking.
 */
export class StandInService {
  /** Emptied in place (`sent.length = 0`), so a test may hold on to it. */
  readonly sent: SentCommand[];
  /** When set, every command is answered with this error, as the real service's reply would arrive. */
  failWith: { code: ErrorCode; message: string } | null = null;

  constructor(bus: CommandBus, service: CommandService | readonly CommandService[], answer: (name: string) => unknown, sent: SentCommand[] = []) {
    this.sent = sent;
    const send = bus.send.bind(bus);
    const services: readonly string[] = typeof service === 'string' ? [service] : service;
    jest.spyOn(bus, 'send').mockImplementation((async (to: string, name: string, payload: Record<string, unknown>, options: never) => {
      if (!services.includes(to)) return send(to as never, name as never, payload as never, options);
      this.sent.push({ name, payload });
      if (this.failWith) throw new RemoteDomainError(this.failWith);
      return answer(name);
    }) as never);
  }

  reset(): void {
    this.sent.length = 0;
    this.failWith = null;
  }
}

export interface StandInRoutes {
  readonly gateway: TestGateway;
  /** The caller: a real organization, authenticated by the real organization service. */
  readonly org: CreatedOrganization;
  readonly standIn: StandInService;
  /** What the gateway sent to the stand-in in this test (emptied before each). */
  readonly sent: SentCommand[];
  call(method: string, path: string, body?: unknown, options?: RequestOptions): ReturnType<TestGateway['request']>;
  /** A refusal before the service: 400 `invalid_request`, its message, and no command sent. */
  refused(method: string, path: string, body?: unknown): Promise<string>;
}

/**
 * A route spec's stack, in its describe block: the organization service, a gateway, an
 * organization calling it, and `service` (one or several) answered by a stand-in (`answer` by
 * command name).
 */
export function useStandInRoutes(queuePrefix: string, service: CommandService | readonly CommandService[], answer: (name: string) => unknown): StandInRoutes {
  const sent: SentCommand[] = [];
  let services: ServiceProcesses | undefined;
  let gateway: TestGateway | undefined;
  let org: CreatedOrganization | undefined;
  let standIn: StandInService | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the stand-in routes start in beforeAll');
    return value;
  };

  beforeAll(async () => {
    services = await startServices(queuePrefix, ['organization-service']);
    gateway = await startTestGateway();
    org = await services.createOrganization(`${[service].flat().join(' and ')} routes`);
    // The service's queue is answered here; authentication still goes to the organization service.
    standIn = new StandInService(gateway.app.get(CommandBus), service, answer, sent);
  }, 120000);

  afterAll(async () => {
    await gateway?.close();
    await services?.stop();
  }, 60000);

  beforeEach(() => standIn?.reset());

  const routes: StandInRoutes = {
    get gateway() {
      return ready(gateway);
    },
    get org() {
      return ready(org);
    },
    get standIn() {
      return ready(standIn);
    },
    sent,
    call: (method, path, body, options = {}) => ready(gateway).request(path, { method, key: ready(org).apiKey, body, ...options }),
    refused: async (method, path, body) => {
      const { message } = expectError(await routes.call(method, path, body), 400, 'invalid_request');
      expect(sent).toEqual([]);
      return message;
    },
  };
  return routes;
}
