export interface AuthenticateApiKeyQuery {
  /** The gateway hashes the presented key; the plain key never travels over the queue. */
  keyHash: string;
}
