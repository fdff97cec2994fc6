import { e164PhoneNumber, isCountryCode, isEmailAddress } from '../src/contact-codes';

describe('contact codes', () => {
  it('knows ISO 3166-1 alpha-2 codes (upper case only) and nothing else', () => {
    expect(['FR', 'US', 'DE', 'GB', 'SG'].every(isCountryCode)).toBe(true);
    expect(['fr', 'XX', 'UK', 'FRA', '', '1A'].some(isCountryCode)).toBe(false);
  });

  it('accepts well-formed email addresses only', () => {
    expect(isEmailAddress('ops@example.com')).toBe(true);
    expect(isEmailAddress('first.last+tag@sub.example.co.uk')).toBe(true);
    for (const bad of ['ops', 'ops@', '@example.com', 'a b@example.com', 'ops@example']) expect(isEmailAddress(bad)).toBe(false);
  });

  it('normalizes valid numbers to E.164, reading national numbers in the given country', () => {
    expect(e164PhoneNumber('+1 415 555 2671')).toBe('+14155552671');
    expect(e164PhoneNumber('01 42 68 53 00', 'FR')).toBe('+33142685300');
    expect(e164PhoneNumber('01 42 68 53 00')).toBeNull();
    expect(e164PhoneNumber('+1 000 000 0000')).toBeNull();
    expect(e164PhoneNumber('call me')).toBeNull();
  });
});
