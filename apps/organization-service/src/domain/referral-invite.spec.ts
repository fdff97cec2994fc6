import { REFERRAL_INVITE_LIFETIME_MS, ReferralInvite } from './referral-invite';

const ISSUED = new Date('2026-11-21T10:00:00.000Z');
const at = (iso: string) => new Date(iso);
const issue = (email = 'Ada@Example.com') =>
  ReferralInvite.issue({ id: 'refinv_0123456789abcdef0123456789abcdef', referrerOrganizationId: 'org_0123456789abcdef0123456789abcdef', email, now: ISSUED });

describe('ReferralInvite', () => {
  describe('normalizeEmail', () => {
    it('ignores case and surrounding spaces, so they never make another address', () => {
      expect(ReferralInvite.normalizeEmail('  Ada.Lovelace@Example.COM \t')).toBe('ada.lovelace@example.com');
    });

    it.each(['', '   ', 'ada', 'ada@', '@example.com', 'ada@example', 'ada lovelace@example.com', `${'a'.repeat(250)}@x.io`])(
      'refuses %j with validation_error naming the field',
      (raw) => {
        expect(() => ReferralInvite.normalizeEmail(raw)).toThrow(expect.objectContaining({ code: 'validation_error', message: 'email: must be an email address' }));
      },
    );
  });

  it('is issued PENDING for 7 days, locked to the normalized email', () => {
    const invite = issue(' ADA@example.com ');
    expect(invite).toMatchObject({ email: 'ada@example.com', acceptedAt: null, acceptedOrganizationId: null, createdAt: ISSUED });
    expect(invite.expiresAt.getTime() - ISSUED.getTime()).toBe(REFERRAL_INVITE_LIFETIME_MS);
    expect(invite.expiresAt.toISOString()).toBe('2026-11-28T10:00:00.000Z');
  });

  it('is PENDING until the instant it expires, EXPIRED from then on, ACCEPTED once accepted whatever the time', () => {
    const invite = issue();
    expect(invite.statusAt(at('2026-11-28T09:59:59.999Z'))).toBe('PENDING');
    expect(invite.statusAt(at('2026-11-28T10:00:00.000Z'))).toBe('EXPIRED');
    const accepted = invite.accept({ email: 'ada@example.com', organizationId: 'org_ffffffffffffffffffffffffffffffff', now: at('2026-11-22T00:00:00.000Z') });
    expect(accepted.statusAt(at('2027-01-01T00:00:00.000Z'))).toBe('ACCEPTED');
  });

  describe('renew', () => {
    it('keeps the id (so the link), email and creation time, and restarts the 7 days from now', () => {
      const invite = issue();
      const renewed = invite.renew(at('2026-11-25T08:00:00.000Z'));
      expect(renewed).toMatchObject({ id: invite.id, email: invite.email, createdAt: ISSUED, expiresAt: at('2026-12-02T08:00:00.000Z') });
    });

    it('brings an expired link back to life', () => {
      const renewed = issue().renew(at('2026-12-10T00:00:00.000Z'));
      expect(renewed.statusAt(at('2026-12-10T00:00:00.000Z'))).toBe('PENDING');
    });

    it('refuses an accepted invite with referral_invite_already_accepted', () => {
      const accepted = issue().accept({ email: 'ada@example.com', organizationId: 'org_ffffffffffffffffffffffffffffffff', now: at('2026-11-22T00:00:00.000Z') });
      expect(() => accepted.renew(at('2026-11-23T00:00:00.000Z'))).toThrow(expect.objectContaining({ code: 'referral_invite_already_accepted' }));
    });
  });

  describe('accept', () => {
    const signUp = { organizationId: 'org_ffffffffffffffffffffffffffffffff', now: at('2026-11-22T00:00:00.000Z') };

    it('records the sign-up with the locked email, whatever its case and spaces', () => {
      const accepted = issue().accept({ ...signUp, email: ' ADA@EXAMPLE.COM ' });
      expect(accepted).toMatchObject({ acceptedAt: signUp.now, acceptedOrganizationId: signUp.organizationId, expiresAt: at('2026-11-28T10:00:00.000Z') });
    });

    it('refuses any other email with forbidden (spec 4.3 rule 1)', () => {
      expect(() => issue().accept({ ...signUp, email: 'eve@example.com' })).toThrow(expect.objectContaining({ code: 'forbidden' }));
    });

    it('answers a link past its expiry like an unknown one: not_found', () => {
      expect(() => issue().accept({ ...signUp, email: 'ada@example.com', now: at('2026-11-28T10:00:00.000Z') })).toThrow(
        expect.objectContaining({ code: 'not_found' }),
      );
    });

    it('checks a second sign-up first: 409 even for an expired link or another email', () => {
      const accepted = issue().accept({ ...signUp, email: 'ada@example.com' });
      for (const attempt of [
        { ...signUp, email: 'ada@example.com' },
        { ...signUp, email: 'eve@example.com' },
        { ...signUp, email: 'ada@example.com', now: at('2027-01-01T00:00:00.000Z') },
      ]) {
        expect(() => accepted.accept(attempt)).toThrow(expect.objectContaining({ code: 'referral_invite_already_accepted' }));
      }
    });
  });
});
