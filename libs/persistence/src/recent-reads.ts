import { LRUCache } from 'lru-cache';
import type { PrismaTransactionHost } from './transaction-host';

/**
 * What a service read from its own copy of another's facts (a projection), reused for `ttlMs`
 * per key (0: until evicted). Every change this process makes to a key forgets it, once now and
 * once more after the commit, and a read that began before a change is not kept: only another
 * replica's change can be missed, and only for `ttlMs`. Reads inside a transaction always go to
 * the copy, and an undefined answer (a key the copy lacks) is never kept.
 */
export class RecentReads<T> {
  private readonly cache: LRUCache<string, { value: T }>;
  private generation = 0;

  constructor(
    private readonly host: PrismaTransactionHost,
    ttlMs: number,
    maxKeys: number,
  ) {
    this.cache = new LRUCache({ max: maxKeys, ttl: ttlMs });
  }

  async read(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    if (this.host.inTransaction) return load();
    const hit = this.cache.get(key);
    if (hit) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && generation === this.generation) this.cache.set(key, { value });
    return value;
  }

  forget(key: string): void {
    const forget = () => {
      this.generation += 1;
      this.cache.delete(key);
    };
    forget();
    if (this.host.inTransaction) this.host.afterCommit(forget);
  }
}
