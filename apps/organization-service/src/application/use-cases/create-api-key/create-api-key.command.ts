export interface CreateApiKeyCommand {
  organizationId: string;
}

export interface CreateApiKeyResult {
  keyId: string;
  apiKey: string;
}
