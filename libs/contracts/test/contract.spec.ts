import {
  COMMAND_CONTRACT,
  commandDefinition,
  commandNames,
  EVENT_SCHEMAS,
  EVENT_SUBSCRIBER_SERVICES,
  EVENT_SUBSCRIBERS,
  eventAggregateId,
  parseCommandPayload,
  parseEvent,
  subscribedEventTypes,
  WEBHOOK_EVENT_TYPES,
  type CommandService,
} from '../src';

describe('the command contract', () => {
  it('derives each queue’s names from its declaration, with system.ping everywhere', () => {
    for (const service of Object.keys(COMMAND_CONTRACT) as CommandService[]) {
      const names = commandNames(service);
      expect(names).toEqual(Object.keys(COMMAND_CONTRACT[service]));
      expect(names).toContain('system.ping');
    }
    expect(commandNames('ledger')).toEqual([
      'system.ping',
      'accounts.list',
      'accounts.get',
      'accounts.open',
      'accounts.open-primary',
      'accounts.update',
      'account-entries.list',
      'funding-methods.provision',
      'funding-methods.get',
      'faucet.credit',
      'payouts.create',
      'transactions.list',
      'transactions.get',
      'transactions.advance',
      'payout-fees.list',
      'account-holders.get',
      'trades.post',
      'trades.get',
      'transfers.create',
    ]);
  });

  it('says which commands change state', () => {
    expect(commandDefinition('organization', 'organizations.create')?.kind).toBe('mutation');
    expect(commandDefinition('organization', 'organizations.get')?.kind).toBe('query');
    expect(commandDefinition('ledger', 'funding-methods.provision')?.kind).toBe('mutation');
    // Names are data: an inherited property is not a command.
    expect(commandDefinition('ledger', 'toString')).toBeUndefined();
    expect(commandDefinition('ledger', '__proto__')).toBeUndefined();
  });

  it('names the mutations whose repeats are found by their claim, every other one reading its log first', () => {
    const onClaim = (Object.keys(COMMAND_CONTRACT) as CommandService[]).flatMap((service) =>
      commandNames(service)
        .filter((name) => commandDefinition(service, name)?.replay === 'on-claim')
        .map((name) => `${service} ${name}`),
    );
    expect(onClaim.sort()).toEqual(['ledger faucet.credit', 'ledger trades.post', 'quote quotes.create', 'quote quotes.execute']);
    expect(commandDefinition('ledger', 'payouts.create')?.replay).toBeUndefined();
  });

  it('accepts a payload of the declared shape and drops fields it does not know', () => {
    expect(parseCommandPayload('ledger', 'accounts.get', { organizationId: 'org_1', accountId: 'acct_1', addedLater: true })).toEqual({
      ok: true,
      payload: { organizationId: 'org_1', accountId: 'acct_1' },
    });
  });

  it.each([
    ['a missing field', 'accounts.get', { organizationId: 'org_1' }, 'accountId'],
    ['a wrong type', 'accounts.list', { organizationId: 'org_1', page: { limit: '25', cursor: null } }, 'page.limit'],
    ['a value outside an enum', 'organizations.create', { callerOrganizationId: 'o', name: 'n', entityType: 'TRUST', country: 'DE', email: null }, 'entityType'],
  ])('refuses %s and names the field', (_case, name, payload, field) => {
    const service = name === 'organizations.create' ? 'organization' : 'ledger';
    const parsed = parseCommandPayload(service, name, payload);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toContain(field);
  });

  it('refuses a command the queue does not declare', () => {
    expect(parseCommandPayload('quote', 'quotes.execute-all', {})).toEqual({ ok: false, problem: '"quotes.execute-all" is not a command of the quote service' });
  });
});

describe('the event contract', () => {
  const created = {
    id: 'evt_1',
    type: 'organization.created',
    source: 'organization',
    occurredAt: '2026-11-23T00:00:00.000Z',
    requestId: null,
    aggregateId: 'org_1',
    sequence: 1,
    data: {
      organizationId: 'org_1',
      primaryAccountId: 'acct_1',
      name: 'Acme',
      parentOrganizationId: null,
      referrerOrganizationId: null,
      createdAt: '2026-11-23T00:00:00.000Z',
    },
  };

  it('has subscribers and a schema for every type', () => {
    expect(Object.keys(EVENT_SUBSCRIBERS).sort()).toEqual(Object.keys(EVENT_SCHEMAS).sort());
    for (const subscribers of Object.values(EVENT_SUBSCRIBERS)) expect(subscribers.length).toBeGreaterThan(0);
    expect(subscribedEventTypes('ledger')).toContain('organization.created');
    expect(EVENT_SUBSCRIBER_SERVICES).toEqual(['organization', 'ledger', 'quote', 'webhook-delivery', 'webhook-delivery-worker']);
  });

  it('accepts a well-formed envelope', () => {
    expect(parseEvent(created)).toEqual({ ok: true, event: created });
  });

  it('refuses an unknown type, a malformed envelope and data of another version', () => {
    expect(parseEvent({ ...created, type: 'organization.renamed' })).toEqual({ ok: false, problem: 'unknown event type "organization.renamed"' });
    expect(parseEvent({ ...created, type: 'toString' })).toMatchObject({ ok: false });
    const noId = parseEvent({ ...created, id: undefined });
    expect(noId.ok).toBe(false);
    const renamed = parseEvent({ ...created, data: { ...created.data, primaryAccountId: undefined, accountId: 'acct_1' } });
    expect(renamed).toMatchObject({ ok: false, problem: expect.stringContaining('primaryAccountId') });
  });

  it('names the aggregate of every event type from its data', () => {
    expect(eventAggregateId('organization.created', created.data as never)).toBe('org_1');
    expect(
      eventAggregateId('organization.verification.updated', {
        object: 'organization',
        organization_id: 'org_2',
        status: 'APPROVED',
        previous_status: 'PENDING',
        reason: null,
        occurred_at: '2026-11-23T00:00:00.000Z',
      }),
    ).toBe('org_2');
    expect(
      eventAggregateId('funding-methods.provisioned', {
        organizationId: 'org_3',
        accountId: 'acct_3',
        asset: 'EUR',
        fundingMethodIds: [],
        provisionedAt: '2026-11-23T00:00:00.000Z',
      }),
    ).toBe('acct_3');
  });

  it('carries the aggregate and its sequence, and refuses a sequence that is not a count', () => {
    expect(parseEvent({ ...created, sequence: 7 })).toMatchObject({ ok: true, event: { aggregateId: 'org_1', sequence: 7 } });
    for (const sequence of [-1, 1.5, '2', null]) {
      expect(parseEvent({ ...created, sequence })).toMatchObject({ ok: false, problem: expect.stringContaining('sequence') });
    }
    expect(parseEvent({ ...created, aggregateId: '' })).toMatchObject({ ok: false, problem: expect.stringContaining('aggregateId') });
  });

  it('reads an event of the previous release (no aggregate, no sequence): aggregate derived, sequence 0', () => {
    const { aggregateId: _aggregateId, sequence: _sequence, ...previous } = created;
    expect(parseEvent(previous)).toEqual({ ok: true, event: { ...created, aggregateId: 'org_1', sequence: 0 } });
  });

  it('requires the audience of a webhook event', () => {
    expect(WEBHOOK_EVENT_TYPES).toContain('organization.verification.updated');
    const verification = {
      ...created,
      type: 'organization.verification.updated',
      data: {
        object: 'organization',
        organization_id: 'org_1',
        status: 'APPROVED',
        previous_status: 'PENDING',
        reason: null,
        occurred_at: '2026-11-23T00:00:00.000Z',
      },
    };
    expect(parseEvent(verification)).toMatchObject({ ok: false, problem: expect.stringContaining('audience') });
    expect(parseEvent({ ...verification, audience: { organizationId: 'org_1', parentOrganizationId: null } }).ok).toBe(true);
  });
});
