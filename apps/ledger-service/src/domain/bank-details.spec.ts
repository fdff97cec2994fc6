import { eurBankDetails, randomDigits, SANDBOX_US_BANK, usdBankDetails, type RandomBytes } from './bank-details';

/** Replays the given bytes, then zeros. */
function replay(...values: number[]): RandomBytes {
  const queue = [...values];
  return (length) => Uint8Array.from({ length }, () => queue.shift() ?? 0);
}

/** Independent of the code under test: ISO 7064 MOD 97-10 over the rearranged IBAN, by BigInt. */
function ibanIsValid(iban: string): boolean {
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (char) => String(char.charCodeAt(0) - 55));
  return BigInt(rearranged) % 97n === 1n;
}

function abaIsValid(routing: string): boolean {
  const d = [...routing].map(Number);
  return routing.length === 9 && (3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + (d[2] + d[5] + d[8])) % 10 === 0;
}

describe('bank details', () => {
  it('draws uniform digits, redrawing bytes of 250 and above', () => {
    expect(randomDigits(replay(250, 255, 7, 19, 249), 3)).toBe('799');
    expect(randomDigits(replay(), 4)).toBe('0000');
  });

  it('uses the test routing number 110000000, with a valid ABA checksum', () => {
    expect(SANDBOX_US_BANK.routingNumber).toBe('110000000');
    expect(abaIsValid(SANDBOX_US_BANK.routingNumber)).toBe(true);
  });

  it('gives USD a US virtual account: routing number and 12-digit account number', () => {
    const details = usdBankDetails(replay(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12), 'PFSREF');
    expect(details).toEqual({
      bankName: 'PFS Sandbox Bank, N.A.',
      accountNumber: '123456789012',
      routingNumber: SANDBOX_US_BANK.routingNumber,
      iban: null,
      swiftCode: null,
      reference: 'PFSREF',
    });
  });

  it('gives EUR a German IBAN with valid check digits and a BIC', () => {
    for (let round = 0; round < 50; round++) {
      const details = eurBankDetails(replay(...Array.from({ length: 10 }, (_, index) => (round * 31 + index * 7) % 250)), 'PFSREF');
      expect(details.iban).toMatch(/^DE\d{20}$/);
      expect(ibanIsValid(details.iban ?? '')).toBe(true);
      expect(details.iban?.slice(-10)).toBe(details.accountNumber);
      expect(details.swiftCode).toMatch(/^[A-Z]{4}DE[A-Z0-9]{2}([A-Z0-9]{3})?$/);
      expect(details).toMatchObject({ routingNumber: null, reference: 'PFSREF', bankName: expect.any(String) });
    }
  });
});
