import { Injectable } from '@nestjs/common';
import type { CommandPayload, FundingMethodView } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { GetFundingMethodUseCase } from '../../application/use-cases/get-funding-method/get-funding-method.use-case';

@Injectable()
export class GetFundingMethodHandler implements CommandHandler<'ledger', 'funding-methods.get'> {
  readonly command = 'funding-methods.get' as const;

  constructor(private readonly useCase: GetFundingMethodUseCase) {}

  execute(payload: CommandPayload<'ledger', 'funding-methods.get'>): Promise<FundingMethodView> {
    return this.useCase.execute(payload);
  }
}
