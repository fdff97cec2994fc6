/** Turns a plain key into the hash that is stored and looked up (keyed by the platform pepper). */
export abstract class ApiKeyHasher {
  abstract hash(plainKey: string): string;
}
