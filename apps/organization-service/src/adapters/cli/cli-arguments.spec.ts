import { parseCliArguments, UsageError } from './cli-arguments';

const ORG = 'org_0123456789abcdef0123456789abcdef';
const KEY = 'key_0123456789abcdef0123456789abcdef';
const EVT = 'evt_0123456789abcdef0123456789abcdef';

describe('parseCliArguments', () => {
  it('reads org:create with its flags', () => {
    expect(parseCliArguments(['org:create', '--name', 'Acme Ltd', '--approved', '--json'])).toEqual({
      command: 'org:create',
      name: 'Acme Ltd',
      approved: true,
      json: true,
    });
    expect(parseCliArguments(['org:create', '--name=Acme'])).toEqual({ command: 'org:create', name: 'Acme', approved: false, json: false });
  });

  it('reads key:create and key:revoke', () => {
    expect(parseCliArguments(['key:create', '--org', ORG, '--json'])).toEqual({ command: 'key:create', organizationId: ORG, json: true });
    expect(parseCliArguments(['key:revoke', '--key', KEY])).toEqual({ command: 'key:revoke', keyId: KEY, json: false });
  });

  it('reads referrals:suspend and referrals:resume', () => {
    expect(parseCliArguments(['referrals:suspend', '--org', ORG])).toEqual({ command: 'referrals:suspend', organizationId: ORG, json: false });
    expect(parseCliArguments(['referrals:resume', '--org', ORG, '--json'])).toEqual({ command: 'referrals:resume', organizationId: ORG, json: true });
  });

  it('reads tier:assign with a key, or --none to remove the tier', () => {
    expect(parseCliArguments(['tier:assign', '--org', ORG, '--tier', 'preferred'])).toEqual({ command: 'tier:assign', organizationId: ORG, tierKey: 'preferred', json: false });
    expect(parseCliArguments(['tier:assign', '--org', ORG, '--none', '--json'])).toEqual({ command: 'tier:assign', organizationId: ORG, tierKey: null, json: true });
  });

  it('reads dead-letters:list, for every subscriber or one', () => {
    expect(parseCliArguments(['dead-letters:list'])).toEqual({ command: 'dead-letters:list', service: null, limit: 100, json: false });
    expect(parseCliArguments(['dead-letters:list', '--service', 'ledger', '--limit', '5', '--json'])).toEqual({
      command: 'dead-letters:list',
      service: 'ledger',
      limit: 5,
      json: true,
    });
  });

  it('reads dead-letters:replay of one event or all', () => {
    expect(parseCliArguments(['dead-letters:replay', '--service', 'ledger', '--event', EVT])).toEqual({
      command: 'dead-letters:replay',
      service: 'ledger',
      replay: { eventId: EVT },
      json: false,
    });
    expect(parseCliArguments(['dead-letters:replay', '--service', 'webhook-delivery', '--all', '--json'])).toEqual({
      command: 'dead-letters:replay',
      service: 'webhook-delivery',
      replay: 'all',
      json: true,
    });
  });

  it('answers help', () => {
    expect(parseCliArguments(['help'])).toEqual({ command: 'help' });
    expect(parseCliArguments(['--help'])).toEqual({ command: 'help' });
  });

  it.each([
    [[], 'a command is required'],
    [['org:delete'], 'unknown command "org:delete"'],
    [['org:create'], 'org:create needs --name <name>'],
    [['org:create', '--name', '   '], 'org:create needs --name <name>'],
    [['org:create', '--name'], "org:create: Option '--name <value>' argument missing"],
    [['org:create', '--name', 'Acme', '--approve'], "org:create: Unknown option '--approve'"],
    [['org:create', '--name', 'Acme', 'extra'], 'org:create: unexpected argument "extra"'],
    [['key:create'], 'key:create needs --org <organizationId>'],
    [['key:create', '--org', 'acme'], '--org must be an organization id'],
    [['key:revoke'], 'key:revoke needs --key <keyId>'],
    [['key:revoke', '--key', ORG], '--key must be an API key id'],
    [['referrals:suspend'], 'referrals:suspend needs --org <organizationId>'],
    [['referrals:resume', '--org', KEY], '--org must be an organization id'],
    [['tier:assign', '--tier', 'vip'], 'tier:assign needs --org <organizationId>'],
    [['tier:assign', '--org', ORG], 'tier:assign needs either --tier <key> or --none'],
    [['tier:assign', '--org', ORG, '--tier', 'vip', '--none'], 'tier:assign needs either --tier <key> or --none'],
    [['dead-letters:list', '--service', 'gateway'], '--service must be a service that consumes events (organization, ledger, quote, webhook-delivery, webhook-delivery-worker)'],
    [['dead-letters:list', '--limit', '0'], '--limit must be a whole number from 1 to 10000'],
    [['dead-letters:replay', '--event', EVT], 'dead-letters:replay needs --service <service>'],
    [['dead-letters:replay', '--service', 'ledger'], 'dead-letters:replay needs either --event <eventId> or --all'],
    [['dead-letters:replay', '--service', 'ledger', '--event', EVT, '--all'], 'dead-letters:replay needs either --event <eventId> or --all'],
    [['dead-letters:replay', '--service', 'ledger', '--event', ORG], '--event must be an event id'],
    [['dead-letters:replay', '--service', 'beneficiary', '--all'], '--service must be a service that consumes events'],
  ])('refuses %j as bad usage', (argv, message) => {
    expect(() => parseCliArguments(argv)).toThrow(UsageError);
    expect(() => parseCliArguments(argv)).toThrow(message);
  });
});
