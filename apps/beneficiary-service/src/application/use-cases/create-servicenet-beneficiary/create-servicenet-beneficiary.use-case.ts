import { Injectable } from '@nestjs/common';
import { Clock, IdGenerator, type BeneficiaryView } from '@pfs/contracts';
import { Beneficiary } from '../../../domain/beneficiary';
import { ServicenetHandleNotFoundError, ServicenetNotEnabledError } from '../../../domain/beneficiary-errors';
import { invalid, requiredText } from '../../../domain/beneficiary-fields';
import { BeneficiaryRegistrar } from '../../beneficiary-registrar';
import { ServicenetDirectory } from '../../ports/servicenet-directory';
import type { CreateServicenetBeneficiaryCommand } from './create-servicenet-beneficiary.command';

/**
 * POST /v1/beneficiaries/servicenet: another organization of the platform as a
 * payee, by its servicenet handle. The caller must be on servicenet (`servicenet_not_enabled`);
 * a handle no one holds, or whose organization is off servicenet, is `servicenet_handle_not_found`
 * (it cannot receive); the caller's own handle is `invalid_request`. The receiving organization's
 * id is stored for the ledger and never shown; the view carries its handle and name as resolved now.
 */
@Injectable()
export class CreateServicenetBeneficiaryUseCase {
  constructor(
    private readonly registrar: BeneficiaryRegistrar,
    private readonly servicenet: ServicenetDirectory,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateServicenetBeneficiaryCommand): Promise<BeneficiaryView> {
    const { organizationId, ...body } = command;
    const handle = requiredText('handle', body.handle, 64);
    if (!(await this.servicenet.isEnabled(organizationId))) throw new ServicenetNotEnabledError(organizationId);
    const receiver = await this.servicenet.resolve(handle);
    if (!receiver?.enabled) throw new ServicenetHandleNotFoundError(handle);
    if (receiver.organizationId === organizationId) throw invalid('handle', 'is your own organization’s handle; a transfer needs another organization');
    const beneficiary = Beneficiary.createServicenet({
      id: this.ids.next('beneficiary'),
      organizationId,
      body,
      receiver: { organizationId: receiver.organizationId, handle: receiver.handle, organizationName: receiver.organizationName },
      now: this.clock.now(),
    });
    return this.registrar.register(beneficiary);
  }
}
