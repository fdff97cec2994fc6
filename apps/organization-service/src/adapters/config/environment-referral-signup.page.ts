import { Inject, Injectable } from '@nestjs/common';
import type { ServiceEnvironment } from '@pfs/contracts';
import { PLATFORM_CONFIG } from '@pfs/messaging';
import type { PlatformConfig } from '@pfs/platform';
import { ReferralSignupPage } from '../../application/ports/referral-signup-page';

/** The platform's sign-up page per environment: a sandbox invite must never lead to production, nor the reverse. */
export const REFERRAL_SIGNUP_PAGES: Readonly<Record<ServiceEnvironment, string>> = {
  sandbox: 'https://sandbox.partner-finance.example/signup',
  production: 'https://app.partner-finance.example/signup',
};

@Injectable()
export class EnvironmentReferralSignupPage extends ReferralSignupPage {
  private readonly base: string;

  constructor(@Inject(PLATFORM_CONFIG) config: PlatformConfig) {
    super();
    this.base = REFERRAL_SIGNUP_PAGES[config.serviceEnv];
  }

  /** The invite id in the link is what locks the email on that page. */
  linkFor(referralInviteId: string): string {
    return `${this.base}?invite=${encodeURIComponent(referralInviteId)}`;
  }
}
