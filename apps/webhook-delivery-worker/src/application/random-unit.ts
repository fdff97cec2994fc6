import type { RandomSource } from '@pfs/contracts';

/** A uniform draw in [0, 1) from the random source (the retry jitter). */
export function randomUnit(random: RandomSource): number {
  return Buffer.from(random.bytes(4)).readUInt32BE(0) / 2 ** 32;
}
