import { addressProblem, literalAddress, webhookUrlProblem, type DestinationRules } from '@pfs/codecs';
import { systemHostResolver, type HostResolver } from '@pfs/platform';
import { DestinationGuard } from '../../application/ports/destination-guard';

/**
 * The SSRF rules with the host resolved now: every address a host name resolves to must be
 * publicly routable (a name that resolves to loopback or a private network is refused like the
 * address itself). The worker checks again, on the address it connects to, at every delivery.
 */
export class DnsDestinationGuard extends DestinationGuard {
  constructor(
    private readonly rules: DestinationRules,
    private readonly resolve: HostResolver = systemHostResolver,
  ) {
    super();
  }

  async problem(url: string): Promise<string | null> {
    const formProblem = webhookUrlProblem(url, this.rules);
    if (formProblem) return formProblem;
    const host = new URL(url).hostname;
    if (literalAddress(host)) return null;
    let addresses: string[];
    try {
      addresses = (await this.resolve(host)).map((entry) => entry.address);
    } catch {
      return `host ${host} does not resolve`;
    }
    if (!addresses.length) return `host ${host} does not resolve`;
    for (const address of addresses) {
      const problem = addressProblem(address, this.rules);
      if (problem) return `host ${host} ${problem.replace(/^must not point/, 'points')}`;
    }
    return null;
  }
}
