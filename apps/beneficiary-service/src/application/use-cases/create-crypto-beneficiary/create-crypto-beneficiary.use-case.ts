import { Injectable } from '@nestjs/common';
import { Clock, IdGenerator, type BeneficiaryView } from '@pfs/contracts';
import { Beneficiary } from '../../../domain/beneficiary';
import { BeneficiaryRegistrar } from '../../beneficiary-registrar';
import { BeneficiarySettings } from '../../ports/beneficiary-settings';
import type { CreateCryptoBeneficiaryCommand } from './create-crypto-beneficiary.command';

/** POST /v1/beneficiaries/crypto: a chain of this environment's catalog and an address valid on it. */
@Injectable()
export class CreateCryptoBeneficiaryUseCase {
  constructor(
    private readonly registrar: BeneficiaryRegistrar,
    private readonly settings: BeneficiarySettings,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateCryptoBeneficiaryCommand): Promise<BeneficiaryView> {
    const { organizationId, ...body } = command;
    const beneficiary = Beneficiary.createCrypto({ id: this.ids.next('beneficiary'), organizationId, body, environment: this.settings.environment, now: this.clock.now() });
    return this.registrar.register(beneficiary);
  }
}
