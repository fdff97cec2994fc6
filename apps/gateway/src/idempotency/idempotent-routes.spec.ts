import { RequestMethod, type Type } from '@nestjs/common';
import { EXCEPTION_FILTERS_METADATA, GUARDS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import type { CommandBus } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';
import type { GatewayConfig } from '../gateway.config';
import { GatewayModule } from '../gateway.module';
import { IdempotencyGuard } from './idempotency.guard';
import { IdempotentReplayFilter } from './idempotent-replay.filter';
import { withIdempotentWrites } from './idempotent-routes';

interface Bound {
  route: string;
  method: string;
  guards: unknown[];
  filters: unknown[];
}

/** Every route handler of the gateway's controllers (sandbox ones included): its method, guards and filters. */
function handlers(): Bound[] {
  const module = GatewayModule.forRoot({ config: { serviceEnv: 'sandbox' } as GatewayConfig, logger: {} as Logger, bus: {} as CommandBus });
  return (module.controllers as Type[]).flatMap((controller) =>
    Object.getOwnPropertyNames(controller.prototype).flatMap((name) => {
      const handler: unknown = (controller.prototype as Record<string, unknown>)[name];
      if (name === 'constructor' || typeof handler !== 'function') return [];
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) return [];
      const metadata = (key: string) => (Reflect.getMetadata(key, handler) as unknown[] | undefined) ?? [];
      return [{ route: `${controller.name}.${name}`, method: RequestMethod[method], guards: metadata(GUARDS_METADATA), filters: metadata(EXCEPTION_FILTERS_METADATA) }];
    }),
  );
}

const count = (list: unknown[], item: unknown) => list.filter((each) => each === item).length;

describe('the idempotency guard bound by route method', () => {
  it('guards every POST, PUT and PATCH handler once, with its replay filter, and no read or delete', () => {
    // Built twice, as two apps in one process are: the binding stays single.
    handlers();
    const all = handlers();
    const writes = all.filter((handler) => ['POST', 'PUT', 'PATCH'].includes(handler.method));
    expect(writes.length).toBeGreaterThan(20);
    for (const { route, guards, filters } of writes) {
      expect({ route, guard: count(guards, IdempotencyGuard), filter: count(filters, IdempotentReplayFilter) }).toEqual({ route, guard: 1, filter: 1 });
    }
    const others = all.filter((handler) => !writes.includes(handler));
    expect(others.map((handler) => handler.method)).toEqual(expect.arrayContaining(['GET', 'DELETE']));
    for (const { route, guards, filters } of others) {
      expect({ route, guard: count(guards, IdempotencyGuard), filter: count(filters, IdempotentReplayFilter) }).toEqual({ route, guard: 0, filter: 0 });
    }
  });

  it('runs after the guards a handler declares itself, which it keeps, so a refused request claims nothing', () => {
    class Declared {}
    class Probe {
      create(): void {}
    }
    Reflect.defineMetadata(METHOD_METADATA, RequestMethod.POST, Probe.prototype.create);
    Reflect.defineMetadata(GUARDS_METADATA, [Declared], Probe.prototype.create);
    withIdempotentWrites([Probe]);
    expect(Reflect.getMetadata(GUARDS_METADATA, Probe.prototype.create)).toEqual([Declared, IdempotencyGuard]);
  });
});
