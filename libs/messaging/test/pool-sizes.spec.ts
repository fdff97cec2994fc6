import { DEFAULT_POOL_SIZES } from '../src';

describe('default PostgreSQL pool sizes', () => {
  it('give every service a pool, the ledger the largest, and open at most 40 connections together', () => {
    const sizes = Object.values(DEFAULT_POOL_SIZES);
    expect(sizes.every((size) => Number.isInteger(size) && size > 0)).toBe(true);
    expect(Math.max(...sizes)).toBe(DEFAULT_POOL_SIZES.ledger);
    expect(sizes.reduce((total, size) => total + size, 0)).toBeLessThanOrEqual(40);
  });
});
