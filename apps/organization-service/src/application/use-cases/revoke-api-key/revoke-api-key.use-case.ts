import { Injectable } from '@nestjs/common';
import { Clock, UnitOfWork } from '@pfs/contracts';
import { ApiKeyNotFoundError } from '../../../domain/organization-errors';
import { ApiKeyRepository } from '../../ports/api-key.repository';
import type { RevokeApiKeyCommand, RevokeApiKeyResult } from './revoke-api-key.command';

/** Idempotent: revoking a revoked key succeeds and reports the original revocation time. */
@Injectable()
export class RevokeApiKeyUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly keys: ApiKeyRepository,
    private readonly clock: Clock,
  ) {}

  async execute(command: RevokeApiKeyCommand): Promise<RevokeApiKeyResult> {
    return this.unitOfWork.run(async () => {
      const key = await this.keys.findById(command.keyId);
      if (!key) throw new ApiKeyNotFoundError(command.keyId);
      const revoked = key.isActive ? await this.keys.saveRevocation(key.revoke(this.clock.now())) : key;
      return { keyId: revoked.id, organizationId: revoked.organizationId, revokedAt: (revoked.revokedAt as Date).toISOString() };
    });
  }
}
