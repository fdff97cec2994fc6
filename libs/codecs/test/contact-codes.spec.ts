import { e164PhoneNumber, isCountryCode, isEmailAddress } from '../src/contact-codes';

describe('contact codes', () => {
  describe('knows ISO 3166-1 alpha-2 codes (upper case only) and nothing else', () => {
    it.each(['FR', 'US', 'DE', 'GB', 'SG'])('accepts %s', (code) => expect(isCountryCode(code)).toBe(true));

    it.each([
      ['lower case', 'fr'],
      ['unassigned', 'XX'],
      ['not ISO (the UK is GB)', 'UK'],
      ['alpha-3', 'FRA'],
      ['empty', ''],
      ['with a digit', '1A'],
    ])('refuses %s: %j', (_case, code) => expect(isCountryCode(code)).toBe(false));
  });

  describe('accepts well-formed email addresses only', () => {
    it.each(['ops@example.com', 'first.last+tag@sub.example.co.uk'])('accepts %s', (email) => expect(isEmailAddress(email)).toBe(true));

    it.each([
      ['no @', 'ops'],
      ['no domain', 'ops@'],
      ['no local part', '@example.com'],
      ['a space', 'a b@example.com'],
      ['a domain without a dot', 'ops@example'],
    ])('refuses %s: %j', (_case, email) => expect(isEmailAddress(email)).toBe(false));
  });

  describe('normalizes valid numbers to E.164, reading national numbers in the given country', () => {
    it.each([
      ['an international number', '+1 415 555 2671', undefined, '+14155552671'],
      ['a national number in its country', '01 42 68 53 00', 'FR', '+33142685300'],
    ] as const)('normalizes %s', (_case, number, country, e164) => expect(e164PhoneNumber(number, country)).toBe(e164));

    it.each([
      ['a national number without a country', '01 42 68 53 00'],
      ['an impossible number', '+1 000 000 0000'],
      ['words', 'call me'],
    ])('answers null for %s', (_case, number) => expect(e164PhoneNumber(number)).toBeNull());
  });
});
