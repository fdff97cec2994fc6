import { Injectable } from '@nestjs/common';
import type { AssetView, CommandPayload } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { ListAssetsUseCase } from '../../application/use-cases/list-assets/list-assets.use-case';

@Injectable()
export class ListAssetsHandler implements CommandHandler<'organization', 'assets.list'> {
  readonly command = 'assets.list' as const;

  constructor(private readonly useCase: ListAssetsUseCase) {}

  execute(payload: CommandPayload<'organization', 'assets.list'>): Promise<AssetView[]> {
    return this.useCase.execute(payload);
  }
}
