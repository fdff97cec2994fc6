import { canonicalJson, requestFingerprint } from './request-fingerprint';

describe('request fingerprint', () => {
  it('writes JSON with keys sorted at every depth and no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: 'x' }], c: true } })).toBe('{"a":{"c":true,"d":[3,{"y":"x","z":null}]},"b":1}');
    expect(canonicalJson('text')).toBe('"text"');
    expect(canonicalJson(null)).toBe('null');
  });

  it('is the same for bodies that differ only in key order', () => {
    expect(requestFingerprint('POST', '/v1/quotes', { fromAsset: 'USD', toAsset: 'EUR', fromAmount: '10' })).toBe(
      requestFingerprint('post', '/v1/quotes', { fromAmount: '10', toAsset: 'EUR', fromAsset: 'USD' }),
    );
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
