export interface RevokeApiKeyCommand {
  keyId: string;
}

export interface RevokeApiKeyResult {
  keyId: string;
  organizationId: string;
  /** ISO timestamp of the first revocation. */
  revokedAt: string;
}
