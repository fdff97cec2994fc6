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

    it.each([
      ['DE', '370400440532013000', 'DE89370400440532013000'],
      ['GB', 'WEST12345698765432', 'GB82WEST12345698765432'],
    ])('composes the check digits of a %s BBAN (the standard examples)', (country, bban, iban) => {
      expect(ibanFor(country, bban)).toBe(iban);
    });

    it('refuses a BBAN of the wrong length for its country', () => expect(() => ibanFor('DE', '12')).toThrow(RangeError));
  });

  describe('BIC (ibantools)', () => {
    it.each(['DEUTDEFF', 'DEUTDEFF500', 'NEDSZAJJXXX', 'PFSBDEB1XXX'])('accepts %s', (bic) => expect(isValidBic(bic)).toBe(true));

    it.each([
      ['7 characters', 'DEUTDEF'],
      ['an unknown country', 'DEUTXXFF'],
      ['10 characters', 'DEUTDEFF50'],
      ['a digit in the bank code', '1EUTDEFF'],
    ])('refuses %s (%s)', (_case, bic) => expect(isValidBic(bic)).toBe(false));
  });

  describe('ABA routing numbers', () => {
    // 110000000 is the payment sandboxes' test number.
    it.each([
      ['02100002', '1'],
      ['01100001', '5'],
      ['11000000', '0'],
    ])('computes the check digit of the published routing number %s%s', (first8, check) => expect(abaCheckDigit(first8)).toBe(check));

    it('needs eight digits to compute a check digit', () => expect(() => abaCheckDigit('1234')).toThrow(RangeError));

    it.each(['021000021', '011000015', '110000000'])('accepts %s', (routing) => expect(isValidAbaRoutingNumber(routing)).toBe(true));

    it.each([
      ['a wrong check digit', '021000022'],
      ['eight digits', '02100002'],
      ['ten digits', '0210000211'],
      ['a letter', '02100002a'],
    ])('refuses %s (%s)', (_case, routing) => expect(isValidAbaRoutingNumber(routing)).toBe(false));
  });
});
