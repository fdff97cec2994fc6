import { Injectable } from '@nestjs/common';
import type { PayableBeneficiaryView } from '@pfs/contracts';
import { CommandBus, withinCurrentCommand } from '@pfs/messaging';
import { BeneficiaryDirectory } from '../../application/ports/beneficiary-directory';

/**
 * The beneficiary service's answer (`payable-beneficiaries.get`), asked over its queue within the
 * current command (its request id and deadline): the ledger never reads the beneficiary schema.
 * Its `beneficiary_not_found` reaches the caller as the same code.
 */
@Injectable()
export class QueueBeneficiaryDirectory extends BeneficiaryDirectory {
  constructor(private readonly bus: CommandBus) {
    super();
  }

  payable(organizationId: string, beneficiaryId: string): Promise<PayableBeneficiaryView> {
    return this.bus.send('beneficiary', 'payable-beneficiaries.get', { organizationId, beneficiaryId }, withinCurrentCommand());
  }
}
