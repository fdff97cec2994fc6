import type { CommandPayload } from '@pfs/contracts';

export type GetPricingQuery = CommandPayload<'quote', 'pricing.get'>;
