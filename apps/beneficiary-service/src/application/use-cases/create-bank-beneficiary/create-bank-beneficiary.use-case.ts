import { Injectable } from '@nestjs/common';
import { Clock, IdGenerator, type BeneficiaryView } from '@pfs/contracts';
import { Beneficiary } from '../../../domain/beneficiary';
import { BeneficiaryRegistrar } from '../../beneficiary-registrar';
import type { CreateBankBeneficiaryCommand } from './create-bank-beneficiary.command';

/** POST /v1/beneficiaries/bank (spec 4.4): validated whole by the domain, for one of the organization's accounts. */
@Injectable()
export class CreateBankBeneficiaryUseCase {
  constructor(
    private readonly registrar: BeneficiaryRegistrar,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(command: CreateBankBeneficiaryCommand): Promise<BeneficiaryView> {
    const { organizationId, ...body } = command;
    return this.registrar.register(Beneficiary.createBank({ id: this.ids.next('beneficiary'), organizationId, body, now: this.clock.now() }));
  }
}
