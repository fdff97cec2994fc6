import { Injectable } from '@nestjs/common';
import type { EventEnvelope } from '@pfs/contracts';
import type { EventHandler } from '@pfs/messaging';
import { EnableAssetUseCase } from '../../application/use-cases/enable-asset/enable-asset.use-case';

/**
 * The ledger provisioned an asset's receiving methods: the asset is ENABLED for the
 * organization (spec §3). The gateway enables it too, for an answer that reads its own write;
 * this makes the two converge even when that step failed. Enabling is idempotent.
 */
@Injectable()
export class FundingMethodsProvisionedSubscriber implements EventHandler<'funding-methods.provisioned'> {
  readonly event = 'funding-methods.provisioned' as const;

  constructor(private readonly enableAsset: EnableAssetUseCase) {}

  async handle(event: EventEnvelope<'funding-methods.provisioned'>): Promise<void> {
    await this.enableAsset.execute({ organizationId: event.data.organizationId, asset: event.data.asset });
  }
}
