import type { Provider, Type } from '@nestjs/common';
import { PrismaTransactionHost } from '@pfs/persistence';

/**
 * `port` served by a service's copy of another's facts (`copy`) behind `Cached`, a short cache
 * of its reads, for `ttlMs()` milliseconds, or by the copy alone when that is 0. The time is read
 * when the service starts.
 */
export function cachedCopyProvider<T>(
  port: abstract new () => T,
  copy: Type<T>,
  Cached: new (copy: T, host: PrismaTransactionHost, ttlMs: number) => T,
  ttlMs: () => number,
): Provider {
  return {
    provide: port,
    useFactory: (inner: T, host: PrismaTransactionHost) => {
      const ms = ttlMs();
      return ms ? new Cached(inner, host, ms) : inner;
    },
    inject: [copy, PrismaTransactionHost],
  };
}
