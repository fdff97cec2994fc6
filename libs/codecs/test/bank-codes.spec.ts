import { abaCheckDigit, ibanFor, isValidAbaRoutingNumber, isValidBic, isValidIban } from '../src';

describe('bank codes', () => {
  describe('IBAN (ibantools)', () => {
    it.each(['GB82WEST12345698765432', 'DE89370400440532013000', 'FR1420041010050500013M02606', 'NL91ABNA0417164300', 'GB82 WEST 1234 5698 7654 32'])(
      'accepts the published example %s',
      (iban) => expect(isValidIban(iban)).toBe(true),
    );

    it.each([
      ['a changed check digit', 'GB83WEST12345698765432'],
      ['a changed account digit', 'DE89370400440532013001'],
      ['the wrong length for its country', 'DE8937040044053201300'],
      ['an unknown country', 'XX89370400440532013000'],
      ['not an IBAN at all', 'hello'],
    ])('refuses %s', (_case, iban) => expect(isValidIban(iban)).toBe(false));

    it('composes the check digits of a BBAN (DE89 3704 0044 0532 0130 00 is the standard example)', () => {
      expect(ibanFor('DE', '370400440532013000')).toBe('DE89370400440532013000');
      expect(ibanFor('GB', 'WEST12345698765432')).toBe('GB82WEST12345698765432');
      expect(() => ibanFor('DE', '12')).toThrow(RangeError);
    });
  });

  describe('BIC (ibantools)', () => {
    it('accepts 8 and 11 character codes and refuses malformed ones', () => {
      expect(['DEUTDEFF', 'DEUTDEFF500', 'NEDSZAJJXXX', 'PFSBDEB1XXX'].map(isValidBic)).toEqual([true, true, true, true]);
      expect(['DEUTDEF', 'DEUTXXFF', 'DEUTDEFF50', '1EUTDEFF'].map(isValidBic)).toEqual([false, false, false, false]);
    });
  });

  describe('ABA routing numbers', () => {
    it('computes the check digit of published routing numbers', () => {
      expect(abaCheckDigit('02100002')).toBe('1'); // 021000021
      expect(abaCheckDigit('01100001')).toBe('5'); // 011000015
      expect(abaCheckDigit('11000000')).toBe('0'); // 110000000, the payment sandboxes' test number
      expect(() => abaCheckDigit('1234')).toThrow(RangeError);
    });

    it('validates nine digits with a matching check digit', () => {
      expect(['021000021', '011000015', '110000000'].map(isValidAbaRoutingNumber)).toEqual([true, true, true]);
      expect(['021000022', '02100002', '0210000211', '02100002a'].map(isValidAbaRoutingNumber)).toEqual([false, false, false, false]);
    });
  });
});
