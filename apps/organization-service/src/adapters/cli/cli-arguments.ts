import { parseArgs } from 'node:util';
import { EVENT_SUBSCRIBER_SERVICES, isEventSubscriber, isId, type ServiceName } from '@pfs/contracts';

export type CliInvocation =
  | { command: 'help' }
  | { command: 'org:create'; name: string; approved: boolean; json: boolean }
  | { command: 'key:create'; organizationId: string; json: boolean }
  | { command: 'key:revoke'; keyId: string; json: boolean }
  | { command: 'referrals:suspend' | 'referrals:resume'; organizationId: string; json: boolean }
  /** `tierKey` null removes the tier. */
  | { command: 'tier:assign'; organizationId: string; tierKey: string | null; json: boolean }
  /** Every subscriber's dead letters when `service` is null. */
  | { command: 'dead-letters:list'; service: ServiceName | null; limit: number; json: boolean }
  | { command: 'dead-letters:replay'; service: ServiceName; replay: { eventId: string } | 'all'; json: boolean };

/** Bad usage: the CLI prints the message and the usage on stderr and exits with code 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const USAGE = `Usage: pnpm cli <command> [options]

Commands:
  org:create --name <name> [--approved] [--json]
      Create a root organization with its primary account and one API key.
      --approved  verification APPROVED at once (else PENDING)
      --json      print only {"organizationId","accountId","apiKey"} on stdout
  key:create --org <organizationId> [--json]
      Create another API key for an organization; --json prints {"keyId","apiKey"}.
  key:revoke --key <keyId> [--json]
      Revoke an API key (revoking a revoked key succeeds); --json prints {"keyId","organizationId","revokedAt"}.
  referrals:suspend --org <organizationId> [--json]
      Suspend the organization's referrals: POST /v1/referral-invites answers 403 forbidden
      (links already issued keep working until they expire).
  referrals:resume --org <organizationId> [--json]
      Lift the suspension. --json prints {"organizationId","enabledAt","suspendedAt"}.
  tier:assign --org <organizationId> (--tier <key> | --none) [--json]
      Set (or with --none remove) any organization's pricing tier, from the whole catalog:
      e.g. a referred organization's, which has no creator to set it. Its spread prices its next
      quotes, and its referrer share is what its referrer earns on its trades. --json prints
      {"object":"sub_org_tier_assignment","organizationId","tier"}.
  dead-letters:list [--service <service>] [--limit <n>] [--json]
      Events a subscriber gave up on (after EVENT_MAX_ATTEMPTS, or refused by the contract),
      oldest first, at most --limit (default 100) per subscriber; every subscriber without
      --service (${EVENT_SUBSCRIBER_SERVICES.join(', ')}). --json prints
      [{"service","total","deadLetters":[{"eventId","type","reason","attempts","failedAt","event"}]}].
  dead-letters:replay --service <service> (--event <eventId> | --all) [--json]
      Put dead letters back on the subscriber's event queue with fresh attempts; one already
      handled is a no-op there. --json prints {"service","replayed":[…],"alreadyQueued":[…]}.
  help
      Show this text.

Exit codes: 0 done, 1 refused (e.g. unknown organization, key or dead letter) or failed, 2 bad usage.
API keys are shown once, on stdout; they are never logged. The dead-letter commands need only
Redis (REDIS_URL, QUEUE_PREFIX); the others only PostgreSQL (DATABASE_URL).`;

const JSON_FLAG = { json: { type: 'boolean' } } as const;

export function parseCliArguments(argv: readonly string[]): CliInvocation {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
      throw new UsageError('a command is required');
    case 'help':
    case '--help':
    case '-h':
      return { command: 'help' };
    case 'org:create': {
      const values = parse(command, rest, { name: { type: 'string' }, approved: { type: 'boolean' }, ...JSON_FLAG });
      const name = typeof values.name === 'string' ? values.name.trim() : '';
      if (!name) throw new UsageError('org:create needs --name <name>');
      return { command, name, approved: values.approved === true, json: values.json === true };
    }
    case 'key:create': {
      const values = parse(command, rest, { org: { type: 'string' }, ...JSON_FLAG });
      if (values.org === undefined) throw new UsageError('key:create needs --org <organizationId>');
      if (!isId('organization', values.org)) throw new UsageError(`--org must be an organization id (org_<32 hex>), not "${String(values.org)}"`);
      return { command, organizationId: values.org, json: values.json === true };
    }
    case 'key:revoke': {
      const values = parse(command, rest, { key: { type: 'string' }, ...JSON_FLAG });
      if (values.key === undefined) throw new UsageError('key:revoke needs --key <keyId>');
      if (!isId('apiKey', values.key)) throw new UsageError(`--key must be an API key id (key_<32 hex>), not "${String(values.key)}"`);
      return { command, keyId: values.key, json: values.json === true };
    }
    case 'referrals:suspend':
    case 'referrals:resume': {
      const values = parse(command, rest, { org: { type: 'string' }, ...JSON_FLAG });
      if (values.org === undefined) throw new UsageError(`${command} needs --org <organizationId>`);
      if (!isId('organization', values.org)) throw new UsageError(`--org must be an organization id (org_<32 hex>), not "${String(values.org)}"`);
      return { command, organizationId: values.org, json: values.json === true };
    }
    case 'tier:assign': {
      const values = parse(command, rest, { org: { type: 'string' }, tier: { type: 'string' }, none: { type: 'boolean' }, ...JSON_FLAG });
      if (values.org === undefined) throw new UsageError('tier:assign needs --org <organizationId>');
      if (!isId('organization', values.org)) throw new UsageError(`--org must be an organization id (org_<32 hex>), not "${String(values.org)}"`);
      if ((values.tier === undefined) === (values.none !== true)) throw new UsageError('tier:assign needs either --tier <key> or --none');
      return { command, organizationId: values.org, tierKey: values.none === true ? null : String(values.tier), json: values.json === true };
    }
    case 'dead-letters:list': {
      const values = parse(command, rest, { service: { type: 'string' }, limit: { type: 'string' }, ...JSON_FLAG });
      const service = values.service === undefined ? null : subscriber(values.service);
      const limit = values.limit === undefined ? 100 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 10000) throw new UsageError(`--limit must be a whole number from 1 to 10000, not "${String(values.limit)}"`);
      return { command, service, limit, json: values.json === true };
    }
    case 'dead-letters:replay': {
      const values = parse(command, rest, { service: { type: 'string' }, event: { type: 'string' }, all: { type: 'boolean' }, ...JSON_FLAG });
      if (values.service === undefined) throw new UsageError('dead-letters:replay needs --service <service>');
      const service = subscriber(values.service);
      if ((values.event === undefined) === (values.all !== true)) throw new UsageError('dead-letters:replay needs either --event <eventId> or --all');
      if (values.event !== undefined && !isId('event', values.event)) throw new UsageError(`--event must be an event id (evt_<32 hex>), not "${String(values.event)}"`);
      return { command, service, replay: values.all === true ? 'all' : { eventId: values.event as string }, json: values.json === true };
    }
    default:
      throw new UsageError(`unknown command "${command}"`);
  }
}

function subscriber(value: string | boolean): ServiceName {
  if (typeof value === 'string' && isEventSubscriber(value)) return value;
  throw new UsageError(`--service must be a service that consumes events (${EVENT_SUBSCRIBER_SERVICES.join(', ')}), not "${String(value)}"`);
}

type OptionSpec = Record<string, { type: 'string' | 'boolean' }>;

function parse(command: string, args: string[], options: OptionSpec): Record<string, string | boolean | undefined> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: true });
  } catch (error) {
    // parseArgs explains unknown options and missing values well enough; keep its words.
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
  if (parsed.positionals.length) throw new UsageError(`${command}: unexpected argument "${parsed.positionals[0]}"`);
  return parsed.values as Record<string, string | boolean | undefined>;
}
