import type { Big } from '@pfs/contracts';

/** Mid-rates (how much of `toAsset` one `fromAsset` is worth); `swap_direction_not_allowed` for a pair without one. */
export abstract class RateSource {
  abstract midRate(fromAsset: string, toAsset: string): Promise<Big>;
}
