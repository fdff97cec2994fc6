import { Injectable } from '@nestjs/common';
import type { AssetView, CommandPayload } from '@pfs/contracts';
import type { CommandHandler } from '@pfs/messaging';
import { EnableAssetUseCase } from '../../application/use-cases/enable-asset/enable-asset.use-case';

@Injectable()
export class EnableAssetHandler implements CommandHandler<'organization', 'assets.enable'> {
  readonly command = 'assets.enable' as const;

  constructor(private readonly useCase: EnableAssetUseCase) {}

  execute(payload: CommandPayload<'organization', 'assets.enable'>): Promise<AssetView> {
    return this.useCase.execute(payload);
  }
}
