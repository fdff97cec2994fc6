import { pooledRandomBytes, pooledRandomHex } from '../src';

describe('pooled random bytes', () => {
  it('hands out each byte once: draws across many refills of the pool never repeat', () => {
    // 2,000 draws of 12 bytes take the 4 KB pool round six times.
    const seen = new Set<string>();
    for (let draw = 0; draw < 2000; draw += 1) {
      const bytes = pooledRandomBytes(12);
      expect(bytes).toHaveLength(12);
      seen.add(bytes.toString('hex'));
    }
    expect(seen.size).toBe(2000);
  });

  it('gives a copy, not a view of the pool: changing it changes no later draw', () => {
    const first = pooledRandomBytes(16);
    first.fill(0);
    const later = Array.from({ length: 300 }, () => pooledRandomBytes(16));
    expect(later.filter((bytes) => bytes.equals(Buffer.alloc(16)))).toHaveLength(0);
  });

  it('draws hex of twice the length, and draws larger than the pool serves directly', () => {
    expect(pooledRandomHex(16)).toMatch(/^[0-9a-f]{32}$/);
    expect(pooledRandomHex(100)).toMatch(/^[0-9a-f]{200}$/);
    const big = pooledRandomBytes(8192);
    expect(big).toHaveLength(8192);
    // Not all zero, and not a repeat of itself (a 4 KB pool twice over).
    expect(big.subarray(0, 4096).equals(big.subarray(4096))).toBe(false);
  });

  it('is uniform enough to be random: every byte value turns up in 64 KB', () => {
    const counts = new Array<number>(256).fill(0);
    for (let draw = 0; draw < 4096; draw += 1) for (const byte of pooledRandomBytes(16)) counts[byte]! += 1;
    expect(Math.min(...counts)).toBeGreaterThan(0);
  });
});
