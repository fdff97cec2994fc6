import { hashApiKey } from '@pfs/contracts';
import { ApiKeyGenerator, type GeneratedApiKey } from '../../../src/application/ports/api-key-generator';
import { ApiKeyHasher } from '../../../src/application/ports/api-key-hasher';
import { ReferralSignupPage } from '../../../src/application/ports/referral-signup-page';

/** Sandbox keys in order (`sk_test_` + 64 hex ending in a counter): predictable in assertions. */
export class SequentialApiKeyGenerator extends ApiKeyGenerator {
  private count = 0;

  generate(): GeneratedApiKey {
    this.count += 1;
    return { plain: `sk_test_${this.count.toString(16).padStart(64, '0')}`, environment: 'sandbox' };
  }
}

/** The real hashing with a test pepper: it is pure, so use cases see the hashes they would in production. */
export class TestPepperApiKeyHasher extends ApiKeyHasher {
  hash(plainKey: string): string {
    return hashApiKey(plainKey, 'test-pepper');
  }
}

export class FixedReferralSignupPage extends ReferralSignupPage {
  linkFor(referralInviteId: string): string {
    return `https://sandbox.partner-finance.example/signup?invite=${referralInviteId}`;
  }
}
