import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';
import { requestFingerprint } from './request-fingerprint';

describe('request fingerprint', () => {
  describe('the canonical form (RFC 8785, with its published examples)', () => {
    it('§3.2.2: literals, numbers in ECMAScript form, strings with minimal escaping', () => {
      const input = JSON.parse(
        '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
      ) as unknown;
      expect(canonicalize(input)).toBe('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}');
    });

    it('§3.2.3: properties sorted by their UTF-16 code units', () => {
      const input = JSON.parse(
        '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}',
      ) as Record<string, string>;
      // Read the order from the text: JSON.parse would put the integer-like key "1" first again.
      const text = canonicalize(input) ?? '';
      const order = Object.values(input).sort((a, b) => text.indexOf(a) - text.indexOf(b));
      expect(order).toEqual([
        'Carriage Return',
        'One',
        'Control',
        'Latin Small Letter O With Diaeresis',
        'Euro Sign',
        'Emoji: Grinning Face',
        'Hebrew Letter Dalet With Dagesh',
      ]);
    });

    it('Appendix B: number serialization samples', () => {
      expect([1e21, 1e-7, 0.000001, -0, 9007199254740992, 295147905179352830000].map((n) => canonicalize(n))).toEqual([
        '1e+21',
        '1e-7',
        '0.000001',
        '0',
        '9007199254740992',
        '295147905179352830000',
      ]);
    });
  });

  it('is the same for bodies that differ only in key order', () => {
    expect(requestFingerprint('POST', '/v1/quotes', { fromAsset: 'USD', toAsset: 'EUR', fromAmount: '10' })).toBe(
      requestFingerprint('post', '/v1/quotes', { fromAmount: '10', toAsset: 'EUR', fromAsset: 'USD' }),
    );
    const expected = createHash('sha256').update('POST\n/v1/quotes\n{"a":{"c":true,"d":[3,{"y":"x","z":null}]},"b":1}').digest('hex');
    expect(requestFingerprint('POST', '/v1/quotes', { b: 1, a: { d: [3, { z: null, y: 'x' }], c: true } })).toBe(expected);
  });

  it('differs when the method, the path, the query or any value differs', () => {
    const base = requestFingerprint('POST', '/v1/quotes', { amount: '10' });
    expect(requestFingerprint('PUT', '/v1/quotes', { amount: '10' })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/quotes/x', { amount: '10' })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/quotes?a=1', { amount: '10' })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/quotes', { amount: '10.0' })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/quotes', { amount: 10 })).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/quotes', [{ amount: '10' }])).not.toBe(base);
    expect(requestFingerprint('POST', '/v1/quotes', undefined)).not.toBe(requestFingerprint('POST', '/v1/quotes', {}));
  });
});
