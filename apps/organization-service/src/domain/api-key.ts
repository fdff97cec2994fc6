import type { ServiceEnvironment } from '@pfs/contracts';

export interface NewApiKey {
  id: string;
  organizationId: string;
  /** Only the hash is kept: the plain key is shown once, at creation, and never stored. */
  keyHash: string;
  hint: string;
  environment: ServiceEnvironment;
  now: Date;
}

/** A credential of one organization. Revocation is final and keeps the row for the audit trail. */
export class ApiKey {
  constructor(
    readonly id: string,
    readonly organizationId: string,
    readonly keyHash: string,
    readonly hint: string,
    readonly environment: ServiceEnvironment,
    readonly createdAt: Date,
    readonly revokedAt: Date | null,
  ) {}

  static issue(input: NewApiKey): ApiKey {
    return new ApiKey(input.id, input.organizationId, input.keyHash, input.hint, input.environment, input.now, null);
  }

  get isActive(): boolean {
    return this.revokedAt === null;
  }

  /** Idempotent: revoking a revoked key keeps its first revocation time. */
  revoke(now: Date): ApiKey {
    if (!this.isActive) return this;
    return new ApiKey(this.id, this.organizationId, this.keyHash, this.hint, this.environment, this.createdAt, now);
  }
}
