import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '@pfs/contracts';
import { OrganizationNotFoundError } from '../../../domain/organization-errors';
import { ApiKeyIssuer } from '../../api-key.issuer';
import { OrganizationRepository } from '../../ports/organization.repository';
import type { CreateApiKeyCommand, CreateApiKeyResult } from './create-api-key.command';

/** Another key for an existing organization (rotation: create the new one, then revoke the old). */
@Injectable()
export class CreateApiKeyUseCase {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly organizations: OrganizationRepository,
    private readonly keys: ApiKeyIssuer,
  ) {}

  async execute(command: CreateApiKeyCommand): Promise<CreateApiKeyResult> {
    return this.unitOfWork.run(async () => {
      if (!(await this.organizations.exists(command.organizationId))) {
        throw new OrganizationNotFoundError(command.organizationId);
      }
      return this.keys.issue(command.organizationId);
    });
  }
}
