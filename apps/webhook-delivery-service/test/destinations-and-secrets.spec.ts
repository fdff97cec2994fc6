import { readPlatformConfig, webhookDestinationRules, webhookSecretBox } from '@pfs/platform';
import { DnsDestinationGuard } from '../src/adapters/destinations/dns-destination-guard';

describe('DnsDestinationGuard', () => {
  const strict = new DnsDestinationGuard({ allowInsecure: false }, async (host) => {
    const table: Record<string, string[]> = {
      'public.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
      'sneaky.example': ['93.184.216.34', '127.0.0.1'],
      'metadata.example': ['169.254.169.254'],
      'mapped.example': ['::ffff:10.0.0.1'],
    };
    const addresses = table[host];
    if (!addresses) throw new Error('ENOTFOUND');
    return addresses.map((address) => ({ address, family: address.includes(':') ? (6 as const) : (4 as const) }));
  });

  it('admits a host whose every address is public', async () => {
    expect(await strict.problem('https://public.example/hooks')).toBeNull();
  });

  it.each([
    ['https://sneaky.example/hooks', 'points at a loopback address'],
    ['https://metadata.example/hooks', 'link-local or cloud metadata'],
    ['https://mapped.example/hooks', 'private'],
    ['https://nowhere.example/hooks', 'does not resolve'],
    ['http://public.example/hooks', 'must be an https:// URL'],
  ])('refuses %s', async (url, problem) => {
    expect(await strict.problem(url)).toContain(problem);
  });

  it('resolves names with the system resolver by default: localhost is loopback', async () => {
    expect(await new DnsDestinationGuard({ allowInsecure: false }).problem('https://localhost/hooks')).toContain('loopback');
  });

  it('admits plain HTTP to localhost when insecure URLs are allowed', async () => {
    expect(await new DnsDestinationGuard({ allowInsecure: true }).problem('http://localhost:4000/hooks')).toBeNull();
  });

  // Literal addresses and localhost, as a client registers them: refused unless insecure URLs are
  // allowed (the end-to-end stack allows them for its loopback receivers).
  it.each([
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://[::1]/hook', 'loopback'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['https://localhost/hook', 'loopback'],
    ['http://93.184.216.34/hook', 'must be an https:// URL'],
  ])('refuses %s while insecure URLs are not allowed', async (url, problem) => {
    expect(await new DnsDestinationGuard({ allowInsecure: false }).problem(url)).toContain(problem);
  });

  describe('admits insecure URLs only when asked, and never in production', () => {
    it('refuses them by default', () => expect(webhookDestinationRules('sandbox', {})).toEqual({ allowInsecure: false }));

    it('admits them in the sandbox when WEBHOOK_ALLOW_INSECURE_URLS is true', () => {
      expect(webhookDestinationRules('sandbox', { WEBHOOK_ALLOW_INSECURE_URLS: 'true' })).toEqual({ allowInsecure: true });
    });

    it('refuses to start in production when asked', () => {
      expect(() => webhookDestinationRules('production', { WEBHOOK_ALLOW_INSECURE_URLS: 'true' })).toThrow('refused in production');
    });
  });
});

describe('webhookSecretBox', () => {
  const config = readPlatformConfig({ SERVICE_ENV: 'sandbox' });
  const sealedWithK1 = (): string => webhookSecretBox(config, { WEBHOOK_SECRET_KEY: 'k1' }).seal('whsec_abc');

  it('seals with WEBHOOK_SECRET_KEY: the secret is not readable in what is stored, and opens again', () => {
    const sealed = sealedWithK1();
    expect(sealed).not.toContain('whsec_abc');
    expect(webhookSecretBox(config, { WEBHOOK_SECRET_KEY: 'k1' }).open(sealed)).toBe('whsec_abc');
  });

  it('does not open with another key', () => {
    expect(() => webhookSecretBox(config, { WEBHOOK_SECRET_KEY: 'k2' }).open(sealedWithK1())).toThrow();
  });

  it('needs WEBHOOK_SECRET_KEY in production', () => {
    expect(() => webhookSecretBox({ ...config, serviceEnv: 'production' }, {})).toThrow('WEBHOOK_SECRET_KEY is required in production');
  });

  it('derives a stable sandbox key without one', () => {
    expect(webhookSecretBox(config, {}).open(webhookSecretBox(config, {}).seal('x'))).toBe('x');
  });
});
