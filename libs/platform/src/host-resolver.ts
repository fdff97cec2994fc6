import { lookup, Resolver } from 'node:dns/promises';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to now (a name that does not resolve throws). */
export type HostResolver = (host: string) => Promise<ResolvedAddress[]>;

/** The system resolver (getaddrinfo: /etc/hosts, then DNS), every address. */
export const systemHostResolver: HostResolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));

/**
 * The resolver for webhook destinations: the system's, or with WEBHOOK_DNS_SERVERS
 * (`host:port,…`) those DNS servers only, queried for A and AAAA records (a split-horizon
 * resolver in production; the tests' own DNS server, which can change its answer between
 * registration and delivery).
 */
export function webhookHostResolver(env: NodeJS.ProcessEnv = process.env): HostResolver {
  const servers = (env.WEBHOOK_DNS_SERVERS ?? '').split(',').map((server) => server.trim()).filter(Boolean);
  if (!servers.length) return systemHostResolver;
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  resolver.setServers(servers);
  return async (host) => {
    const [v4, v6] = await Promise.all([
      resolver.resolve4(host).catch(() => [] as string[]),
      resolver.resolve6(host).catch(() => [] as string[]),
    ]);
    const addresses = [...v4.map((address) => ({ address, family: 4 as const })), ...v6.map((address) => ({ address, family: 6 as const }))];
    if (!addresses.length) throw new Error(`host ${host} does not resolve`);
    return addresses;
  };
}

/**
 * WEBHOOK_ALLOW_INSECURE_URLS=true admits http:// and loopback webhook URLs (development and
 * tests only; refused in production). The same rule at registration (webhook-delivery service)
 * and at delivery (worker). Structurally `DestinationRules` of `@pfs/codecs`.
 */
export function webhookDestinationRules(serviceEnv: string, env: NodeJS.ProcessEnv = process.env): { allowInsecure: boolean } {
  const allowInsecure = env.WEBHOOK_ALLOW_INSECURE_URLS === 'true';
  if (allowInsecure && serviceEnv === 'production') throw new Error('WEBHOOK_ALLOW_INSECURE_URLS is for development and tests: refused in production');
  return { allowInsecure };
}
