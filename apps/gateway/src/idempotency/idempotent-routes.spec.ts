import { RequestMethod, type Type } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import type { CommandBus } from '@pfs/messaging';
import type { Logger } from '@pfs/platform';
import type { GatewayConfig } from '../gateway.config';
import { GatewayModule } from '../gateway.module';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { withIdempotentWrites } from './idempotent-routes';

/** Every route handler of the gateway's controllers (sandbox ones included): its method and interceptors. */
function handlers(): Array<{ route: string; method: string; interceptors: unknown[] }> {
  const module = GatewayModule.forRoot({ config: { serviceEnv: 'sandbox' } as GatewayConfig, logger: {} as Logger, bus: {} as CommandBus });
  return (module.controllers as Type[]).flatMap((controller) =>
    Object.getOwnPropertyNames(controller.prototype).flatMap((name) => {
      const handler: unknown = (controller.prototype as Record<string, unknown>)[name];
      const method = typeof handler === 'function' ? (Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined) : undefined;
      if (method === undefined || name === 'constructor') return [];
      const interceptors = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler as object) as unknown[] | undefined) ?? [];
      return [{ route: `${controller.name}.${name}`, method: RequestMethod[method], interceptors }];
    }),
  );
}

describe('the idempotency interceptor bound by route method', () => {
  it('runs on every POST, PUT and PATCH handler, once, and on no read or delete', () => {
    // Built twice, as two apps in one process are: the binding stays single.
    handlers();
    const all = handlers();
    const writes = all.filter((handler) => ['POST', 'PUT', 'PATCH'].includes(handler.method));
    expect(writes.length).toBeGreaterThan(20);
    for (const handler of writes) {
      expect({ route: handler.route, bound: handler.interceptors.filter((interceptor) => interceptor === IdempotencyInterceptor).length }).toEqual({
        route: handler.route,
        bound: 1,
      });
    }
    const others = all.filter((handler) => !writes.includes(handler));
    expect(others.map((handler) => handler.method)).toEqual(expect.arrayContaining(['GET', 'DELETE']));
    for (const handler of others) expect({ route: handler.route, bound: handler.interceptors.includes(IdempotencyInterceptor) }).toEqual({ route: handler.route, bound: false });
  });

  it('runs before the interceptors a handler declares itself, which it keeps', () => {
    class Declared {}
    class Probe {
      create(): void {}
    }
    Reflect.defineMetadata(METHOD_METADATA, RequestMethod.POST, Probe.prototype.create);
    Reflect.defineMetadata(INTERCEPTORS_METADATA, [Declared], Probe.prototype.create);
    withIdempotentWrites([Probe]);
    expect(Reflect.getMetadata(INTERCEPTORS_METADATA, Probe.prototype.create)).toEqual([IdempotencyInterceptor, Declared]);
  });
});
