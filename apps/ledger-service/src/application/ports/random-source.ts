/** Randomness comes through a port so tests can pin generated addresses and account numbers. */
export abstract class RandomSource {
  abstract bytes(length: number): Uint8Array;
}
