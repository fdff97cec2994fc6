import { RequestMethod, type Type } from '@nestjs/common';
import { EXCEPTION_FILTERS_METADATA, GUARDS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { IDEMPOTENT_METHODS, IdempotencyGuard } from './idempotency.guard';
import { IdempotentReplayFilter } from './idempotent-replay.filter';

/**
 * Binds the idempotency guard, and the filter that answers its replays, to every POST, PUT and
 * PATCH handler of `controllers`, and to no other. A guard, not an interceptor: Nest runs an rxjs
 * pipeline per request for any route with an interceptor, which cost the gateway a tenth to a
 * fifth of its CPU per faucet credit and a third per read, where it only passed requests through.
 * Binding from the route's method, instead of by a decorator on each handler, leaves no write to
 * forget. The guard comes after the handler's own guards (the global ones run before both), so
 * a refused request never claims a key. It writes the metadata `@UseGuards` and `@UseFilters`
 * write; calling it again for the same controllers (each test builds its own app) binds nothing
 * twice.
 */
export function withIdempotentWrites(controllers: Type[]): Type[] {
  for (const controller of controllers) {
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler: unknown = Object.getOwnPropertyDescriptor(prototype, name)?.value;
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined || !IDEMPOTENT_METHODS.has(RequestMethod[method])) continue;
      const guards = (Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? [];
      if (guards.includes(IdempotencyGuard)) continue;
      Reflect.defineMetadata(GUARDS_METADATA, [...guards, IdempotencyGuard], handler);
      const filters = (Reflect.getMetadata(EXCEPTION_FILTERS_METADATA, handler) as unknown[] | undefined) ?? [];
      Reflect.defineMetadata(EXCEPTION_FILTERS_METADATA, [...filters, IdempotentReplayFilter], handler);
    }
  }
  return controllers;
}
