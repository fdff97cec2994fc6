import type { EventEnvelope, WebhookAudience } from '@pfs/contracts';
import { fanOut, recipientOrganizations, subscribes, webhookBody } from './fan-out';
import { WebhookEndpoint } from './webhook-endpoint';

const now = new Date('2026-11-23T12:00:00.000Z');

function endpoint(id: string, organizationId: string, options: { eventTypes?: string[]; disabled?: boolean; deleted?: boolean } = {}): WebhookEndpoint {
  let registered = WebhookEndpoint.register({
    id,
    organizationId,
    url: `https://hooks.example.com/${id}`,
    description: null,
    eventTypes: options.eventTypes ?? [],
    secret: 'whsec_x',
    now,
  });
  if (options.disabled) registered = registered.update({ disabled: true }, now);
  if (options.deleted) registered = registered.delete(now);
  return registered;
}

const client = 'org_client';
const broker = 'org_broker';
const withoutLoa: WebhookAudience = { organizationId: client, parentOrganizationId: broker, parentHoldsActiveLoa: false };
const withLoa: WebhookAudience = { ...withoutLoa, parentHoldsActiveLoa: true };
const root: WebhookAudience = { organizationId: broker, parentOrganizationId: null, parentHoldsActiveLoa: false };

describe('fan-out (spec 6.4)', () => {
  it.each([
    ['organization.verification.updated', withoutLoa, [client, broker]],
    ['organization.verification.updated', withLoa, [client, broker]],
    ['transaction.status.updated', withoutLoa, [client]],
    ['transaction.status.updated', withLoa, [client, broker]],
    ['transaction.status.updated', root, [broker]],
    ['organization.verification.updated', root, [broker]],
  ] as const)('%s with audience %j reaches %j', (type, audience, organizations) => {
    expect(recipientOrganizations(type, audience)).toEqual(organizations);
  });

  it('delivers to subscribed, enabled, undeleted endpoints of each recipient only', () => {
    const endpoints = [
      endpoint('ep_client_all', client),
      endpoint('ep_client_tx', client, { eventTypes: ['transaction.status.updated'] }),
      endpoint('ep_client_kyc', client, { eventTypes: ['organization.verification.updated'] }),
      endpoint('ep_client_off', client, { disabled: true }),
      endpoint('ep_client_gone', client, { deleted: true }),
      endpoint('ep_broker', broker),
      endpoint('ep_stranger', 'org_stranger'),
    ];
    const of = (organizationId: string) => endpoints.filter((candidate) => candidate.props.organizationId === organizationId).map((candidate) => candidate.props);
    expect(fanOut('transaction.status.updated', withoutLoa, of).map((target) => target.id)).toEqual(['ep_client_all', 'ep_client_tx']);
    expect(fanOut('transaction.status.updated', withLoa, of).map((target) => target.id)).toEqual(['ep_client_all', 'ep_client_tx', 'ep_broker']);
    expect(fanOut('organization.verification.updated', withoutLoa, of).map((target) => target.id)).toEqual(['ep_client_all', 'ep_client_kyc', 'ep_broker']);
    expect(subscribes(endpoint('ep_x', client, { eventTypes: ['organization.verification.updated'] }).props, 'transaction.status.updated')).toBe(false);
  });

  it('builds exactly spec 2.12’s envelope from the event, without the internal fields', () => {
    const event = {
      id: 'evt_1',
      type: 'transaction.status.updated',
      source: 'ledger',
      occurredAt: '2026-11-23T12:00:00.000Z',
      requestId: 'req_1',
      aggregateId: 'txn_1',
      sequence: 2,
      audience: withLoa,
      data: {
        object: 'transaction',
        transaction_id: 'txn_1',
        transaction_type: 'CRYPTO_PAYIN',
        status: 'COMPLETED',
        previous_status: 'EXPECTED',
        account_id: 'acct_1',
        organization_id: client,
        role: 'RECEIVER',
        occurred_at: '2026-11-23T12:00:00.000Z',
      },
    } satisfies EventEnvelope<'transaction.status.updated'>;
    expect(webhookBody(event)).toEqual({ type: 'transaction.status.updated', timestamp: '2026-11-23T12:00:00.000Z', data: event.data });
    expect(Object.keys(webhookBody(event))).toEqual(['type', 'timestamp', 'data']);
  });
});
