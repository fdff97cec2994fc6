import { Big } from '@pfs/contracts';
import { TradeSizeLimits } from './trade-size-limits';

describe('TradeSizeLimits', () => {
  it('bounds each pair by its configured limits, else the source asset’s default, naming both bounds when refused', () => {
    const limits = TradeSizeLimits.parse('BTC/USD=0.001:2');
    expect(limits.boundsOf('BTC', 'USD')).toEqual({ min: new Big('0.001'), max: new Big('2') });
    expect(limits.boundsOf('BTC', 'EUR')).toEqual({ min: new Big('0.00001'), max: new Big('10') });
    expect(() => limits.check('BTC', 'USD', new Big('0.001'))).not.toThrow();
    expect(() => limits.check('BTC', 'USD', new Big('2'))).not.toThrow();
    expect(() => limits.check('BTC', 'USD', new Big('0.00099999'))).toThrow(
      expect.objectContaining({ code: 'trade_size_out_of_bounds', message: 'fromAmount: 0.00099999 BTC is outside the trade size for BTC → USD: from 0.001 to 2 BTC.' }),
    );
    expect(() => limits.check('BTC', 'USD', new Big('2.00000001'))).toThrow(expect.objectContaining({ code: 'trade_size_out_of_bounds' }));
    expect(() => limits.check('USD', 'EUR', new Big('0.99'))).toThrow(expect.objectContaining({ message: expect.stringContaining('from 1 to 1000000 USD') }));
  });

  it('stops the service at start on a malformed limit', () => {
    expect(() => TradeSizeLimits.parse('BTC/USD=2:1')).toThrow('MIN ≤ MAX');
    expect(() => TradeSizeLimits.parse('BTC/USD=1')).toThrow('is not FROM/TO=MIN:MAX');
    expect(() => TradeSizeLimits.parse('BTC/GBP=1:2')).toThrow('GBP is not an asset of the catalog');
  });
});
