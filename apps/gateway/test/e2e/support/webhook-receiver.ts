import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver got, with what `standardwebhooks` made of it. */
export interface Received {
  id: string;
  timestamp: number;
  signatures: string[];
  headers: IncomingHttpHeaders;
  body: string;
  /** The secrets (of `secrets`) with which the `standardwebhooks` package verifies it. */
  verifiedWith: string[];
  receivedAt: number;
}

export type Reply = { status: number; headers?: Record<string, string>; body?: string; delayMs?: number } | 'hang';

/**
 * A partner's webhook receiver: a real HTTP server on 127.0.0.1 that records every request,
 * verifies each with the `standardwebhooks` npm package (never our own verifier) against the
 * secrets the test gives it, and answers as the test says (a status, a redirect, a hang).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  secrets: string[] = [];
  reply: (request: Received, count: number) => Reply = () => ({ status: 200, body: 'ok' });
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private open = 0;
  /** The most requests it held open at once. */
  maxOpen = 0;
  private readonly hanging = new Set<ServerResponse>();

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      // Deliveries are POSTs. Anything else is a stray caller that found this port free before the
      // receiver took it (another file's stack probing where its app was to listen): not recorded.
      if (request.method !== 'POST') {
        request.resume();
        response.writeHead(404).end();
        return;
      }
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = request.headers;
        const verifiedWith = this.secrets.filter((secret) => {
          try {
            new Webhook(secret).verify(body, headers as Record<string, string>);
            return true;
          } catch {
            return false;
          }
        });
        const received: Received = {
          id: String(headers['hook-id']),
          timestamp: Number(headers['hook-timestamp']),
          signatures: String(headers['hook-signature'] ?? '').split(' ').filter(Boolean),
          headers,
          body,
          verifiedWith,
          receivedAt: Date.now(),
        };
        this.received.push(received);
        const answer = this.reply(received, this.received.length);
        if (answer === 'hang') {
          this.open += 1;
          this.maxOpen = Math.max(this.maxOpen, this.open);
          this.hanging.add(response);
          response.on('close', () => {
            this.open -= 1;
            this.hanging.delete(response);
          });
          return;
        }
        const respond = () => {
          response.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
          response.end(answer.body ?? '');
        };
        if (answer.delayMs) setTimeout(respond, answer.delayMs);
        else respond();
      });
    });
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  url(path = '/hooks', host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  /** Each message once, as a receiver that de-duplicates by `hook-id` keeps it. */
  unique(): Map<string, Received> {
    const seen = new Map<string, Received>();
    for (const request of this.received) if (!seen.has(request.id)) seen.set(request.id, request);
    return seen;
  }

  payloads<T = { type: string; timestamp: string; data: Record<string, unknown> }>(): T[] {
    return [...this.unique().values()].map((request) => JSON.parse(request.body) as T);
  }

  async stop(): Promise<void> {
    for (const response of this.hanging) response.destroy();
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
