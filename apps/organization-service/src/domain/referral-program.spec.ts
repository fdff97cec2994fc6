import { ReferralProgram } from './referral-program';

const ORG = 'org_0123456789abcdef0123456789abcdef';
const T1 = new Date('2026-11-21T10:00:00.000Z');
const T2 = new Date('2026-11-22T10:00:00.000Z');

describe('ReferralProgram', () => {
  it('is switched on by the first invite and keeps that first time afterwards (spec 4.3 rule 5)', () => {
    const on = ReferralProgram.none(ORG).switchOn(T1);
    expect(on).toEqual(new ReferralProgram(ORG, T1, null));
    expect(on.switchOn(T2)).toBe(on);
  });

  it('refuses to switch on while suspended, with forbidden, whether or not it was on before', () => {
    for (const program of [ReferralProgram.none(ORG).suspend(T1), ReferralProgram.none(ORG).switchOn(T1).suspend(T2)]) {
      expect(program.suspended).toBe(true);
      expect(() => program.switchOn(T2)).toThrow(expect.objectContaining({ code: 'forbidden', message: expect.stringContaining(ORG) }));
    }
  });

  it('keeps the first suspension time when suspended again, and keeps enabledAt across suspend and resume', () => {
    const suspended = ReferralProgram.none(ORG).switchOn(T1).suspend(T1);
    expect(suspended.suspend(T2)).toBe(suspended);
    const resumed = suspended.resume();
    expect(resumed).toEqual(new ReferralProgram(ORG, T1, null));
    expect(resumed.switchOn(T2)).toBe(resumed);
  });

  it('a program suspended before it was ever on is switched on by the first invite after resuming', () => {
    const resumed = ReferralProgram.none(ORG).suspend(T1).resume();
    expect(resumed.enabledAt).toBeNull();
    expect(resumed.switchOn(T2).enabledAt).toEqual(T2);
  });
});
