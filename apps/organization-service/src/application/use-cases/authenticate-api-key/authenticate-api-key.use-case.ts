import { Injectable } from '@nestjs/common';
import type { Principal } from '@pfs/contracts';
import { AuthenticationFailedError } from '../../../domain/organization-errors';
import { ApiKeyRepository } from '../../ports/api-key.repository';
import type { AuthenticateApiKeyQuery } from './authenticate-api-key.query';

@Injectable()
export class AuthenticateApiKeyUseCase {
  constructor(private readonly keys: ApiKeyRepository) {}

  async execute(query: AuthenticateApiKeyQuery): Promise<Principal> {
    const key = await this.keys.findByHash(query.keyHash);
    if (!key || !key.isActive) throw new AuthenticationFailedError();
    return { organizationId: key.organizationId, keyId: key.id };
  }
}
