import { readPlatformConfig } from '@pfs/platform';
import { commandLaneConcurrency, DEFAULT_POOL_SIZES, poolSizeOf } from '../src';

describe('default PostgreSQL pool sizes', () => {
  it('give every service a pool, the ledger the largest, and open at most 40 connections together', () => {
    const sizes = Object.values(DEFAULT_POOL_SIZES);
    expect(sizes.every((size) => Number.isInteger(size) && size > 0)).toBe(true);
    expect(Math.max(...sizes)).toBe(DEFAULT_POOL_SIZES.ledger);
    expect(sizes.reduce((total, size) => total + size, 0)).toBeLessThanOrEqual(40);
  });

  it('size each command lane by the pool: twice as many jobs as connections, unless COMMAND_CONCURRENCY says otherwise', () => {
    const defaults = readPlatformConfig({});
    expect(poolSizeOf('ledger', defaults)).toBe(10);
    expect(commandLaneConcurrency('ledger', defaults)).toBe(20);
    expect(commandLaneConcurrency('quote', defaults)).toBe(12);
    const pooled = readPlatformConfig({ DATABASE_POOL_SIZE: '3' });
    expect(commandLaneConcurrency('ledger', pooled)).toBe(6);
    expect(commandLaneConcurrency('ledger', readPlatformConfig({ DATABASE_POOL_SIZE: '3', COMMAND_CONCURRENCY: '40' }))).toBe(40);
    expect(() => readPlatformConfig({ COMMAND_CONCURRENCY: '0' })).toThrow('COMMAND_CONCURRENCY must be a positive integer');
  });
});
