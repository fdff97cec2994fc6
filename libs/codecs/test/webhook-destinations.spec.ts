import { addressProblem, webhookUrlProblem } from '../src';

const strict = { allowInsecure: false };
const insecure = { allowInsecure: true };

describe('webhook destinations (the SSRF rules)', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '::1',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    'fc00::1',
    'fd00:ec2::254',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.1.2.3',
    '0.0.0.0',
    '::',
    '224.0.0.1',
    'ff02::1',
    '255.255.255.255',
  ])('refuses %s', (address) => {
    expect(addressProblem(address, strict)).toMatch(/^must not point at/);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('admits the public address %s', (address) => {
    expect(addressProblem(address, strict)).toBeNull();
  });

  it.each(['127.0.0.1', '::1'])('admits the loopback address %s when insecure URLs are allowed', (address) => {
    expect(addressProblem(address, insecure)).toBeNull();
  });

  it('never admits a private range, even when insecure URLs are allowed', () => expect(addressProblem('10.0.0.1', insecure)).toMatch(/private/));

  it.each([
    ['http://example.com/hook', 'must be an https:// URL'],
    ['ftp://example.com/hook', 'must be an https:// URL'],
    ['not a url', 'must be an absolute URL'],
    ['https://user:pass@example.com/hook', 'must not carry credentials'],
    [`https://example.com/${'a'.repeat(2048)}`, 'at most 2048 characters'],
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://[::1]/hook', 'loopback'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://10.0.0.5:8443/hook', 'private'],
  ])('refuses %s by its form', (url, problem) => {
    expect(webhookUrlProblem(url, strict)).toContain(problem);
  });

  it.each(['https://hooks.example.com/pfs?x=1', 'https://93.184.216.34/hook'])('admits %s, an https URL to a public host', (url) => {
    expect(webhookUrlProblem(url, strict)).toBeNull();
  });

  it('admits http to loopback when insecure URLs are allowed', () => {
    expect(webhookUrlProblem('http://127.0.0.1:4000/hook', insecure)).toBeNull();
  });
});
