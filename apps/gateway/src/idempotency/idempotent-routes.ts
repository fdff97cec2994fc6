import { RequestMethod, type Type } from '@nestjs/common';
import { INTERCEPTORS_METADATA, METHOD_METADATA } from '@nestjs/common/constants';
import { IDEMPOTENT_METHODS, IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * Binds the idempotency interceptor to every POST, PUT and PATCH handler of `controllers`, and to
 * no other: Nest runs an rxjs pipeline per request for any route with an interceptor, which on a
 * read that the interceptor would only pass through cost a third of the gateway's CPU. Binding
 * from the route's method, instead of by a decorator on each handler, leaves no write to forget.
 * It writes the metadata `@UseInterceptors` writes; calling it again for the same controllers
 * (each test builds its own app) binds nothing twice.
 */
export function withIdempotentWrites(controllers: Type[]): Type[] {
  for (const controller of controllers) {
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
      const handler: unknown = descriptor?.value;
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined || !IDEMPOTENT_METHODS.has(RequestMethod[method])) continue;
      const declared = (Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? [];
      // First, as a global interceptor would run: a replay runs none of the handler's own.
      if (!declared.includes(IdempotencyInterceptor)) Reflect.defineMetadata(INTERCEPTORS_METADATA, [IdempotencyInterceptor, ...declared], handler);
    }
  }
  return controllers;
}
