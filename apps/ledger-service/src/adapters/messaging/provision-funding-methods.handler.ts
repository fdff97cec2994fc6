import { Injectable } from '@nestjs/common';
import type { CommandPayload, FundingMethodView } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { ProvisionFundingMethodsUseCase } from '../../application/use-cases/provision-funding-methods/provision-funding-methods.use-case';

@Injectable()
export class ProvisionFundingMethodsHandler implements CommandHandler<'ledger', 'funding-methods.provision'> {
  readonly command = 'funding-methods.provision' as const;

  constructor(private readonly useCase: ProvisionFundingMethodsUseCase) {}

  execute(payload: CommandPayload<'ledger', 'funding-methods.provision'>): Promise<FundingMethodView[]> {
    return this.useCase.execute(payload);
  }
}
