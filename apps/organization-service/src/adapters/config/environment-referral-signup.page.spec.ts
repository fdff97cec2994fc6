import { readPlatformConfig } from '@pfs/platform';
import { EnvironmentReferralSignupPage, REFERRAL_SIGNUP_PAGES } from './environment-referral-signup.page';

describe('EnvironmentReferralSignupPage', () => {
  it('leads to the sign-up page of the environment the invite was issued in, carrying the invite id', () => {
    const id = 'refinv_0123456789abcdef0123456789abcdef';
    const sandbox = new EnvironmentReferralSignupPage(readPlatformConfig({ SERVICE_ENV: 'sandbox' }));
    const production = new EnvironmentReferralSignupPage(readPlatformConfig({ SERVICE_ENV: 'production', API_KEY_PEPPER: 'p', CURSOR_SECRET: 'c' }));
    expect(sandbox.linkFor(id)).toBe(`https://sandbox.partner-finance.example/signup?invite=${id}`);
    expect(production.linkFor(id)).toBe(`https://app.partner-finance.example/signup?invite=${id}`);
    expect(new URL(production.linkFor(id)).host).not.toBe(new URL(REFERRAL_SIGNUP_PAGES.sandbox).host);
  });
});
