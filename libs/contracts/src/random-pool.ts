import { randomBytes } from 'node:crypto';

// Random bytes are drawn from the CSPRNG in blocks: one call per 4 KB instead of one per draw
// (ids for every request and command, a seal's nonce per command result, a retry's jitter).
const POOL_SIZE = 4096;
/**
 * Larger draws (a signing secret, an API key, a deposit address) go to the CSPRNG directly: no
 * secret's bytes sit in a buffer shared with other draws.
 */
const MAX_POOLED_DRAW = 16;

let pool = randomBytes(POOL_SIZE);
let offset = 0;

/** Where the next `length` bytes of the pool start; every byte is handed out once. */
function take(length: number): number {
  if (offset + length > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    offset = 0;
  }
  const start = offset;
  offset += length;
  return start;
}

/** `length` bytes from the CSPRNG, as `randomBytes` would give them. */
export function pooledRandomBytes(length: number): Buffer {
  if (length > MAX_POOLED_DRAW) return randomBytes(length);
  const start = take(length);
  return Buffer.from(pool.subarray(start, start + length));
}

/** `length` random bytes as lowercase hex (`2 × length` characters). */
export function pooledRandomHex(length: number): string {
  if (length > MAX_POOLED_DRAW) return randomBytes(length).toString('hex');
  const start = take(length);
  return pool.toString('hex', start, start + length);
}
