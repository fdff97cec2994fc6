import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import * as packet from 'dns-packet';

/**
 * A DNS server the test writes (A and AAAA records), for WEBHOOK_DNS_SERVERS: a name can
 * resolve to a public address at registration and to an internal one at delivery (rebinding).
 */
export class TestDnsServer {
  readonly records = new Map<string, string[]>();
  private socket?: Socket;

  async start(): Promise<this> {
    this.socket = createSocket('udp4');
    this.socket.on('message', (message, remote) => {
      const query = packet.decode(message);
      const answers = (query.questions ?? []).flatMap((question) => {
        const addresses = this.records.get(question.name.toLowerCase()) ?? [];
        const wanted = addresses.filter((address) => (question.type === 'AAAA' ? address.includes(':') : question.type === 'A' && !address.includes(':')));
        return wanted.map((data) => ({ type: question.type as 'A' | 'AAAA', name: question.name, ttl: 0, data }));
      });
      const known = (query.questions ?? []).some((question) => this.records.has(question.name.toLowerCase()));
      const response = packet.encode({
        type: 'response',
        id: query.id,
        flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (known ? 0 : 3), // rcode 3: NXDOMAIN
        questions: query.questions,
        answers,
      });
      this.socket?.send(response, remote.port, remote.address);
    });
    await new Promise<void>((resolve) => this.socket!.bind(0, '127.0.0.1', resolve));
    return this;
  }

  get address(): string {
    return `127.0.0.1:${(this.socket!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.socket ? this.socket.close(() => resolve()) : resolve()));
  }
}
