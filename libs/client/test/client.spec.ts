import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createPfsClient, ok, paginate, PfsApiError, verifyWebhook, WebhookVerificationError } from '../src';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'drop';

/**
 * A stand-in for the API on a real local port: it records each request and answers with the
 * next scripted answer for its path (the last one repeats).
 */
class StandIn {
  readonly seen: Seen[] = [];
  private readonly script = new Map<string, Answer[]>();
  private server?: Server;

  answer(path: string, ...answers: Answer[]): this {
    this.script.set(path, answers);
    return this;
  }

  async start(): Promise<string> {
    this.server = createServer((request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        this.seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        const path = (request.url ?? '').split('?')[0] ?? '';
        const answers = this.script.get(path) ?? [{ status: 404, body: { error: { code: 'not_found', message: 'no such path', requestId: `req_${'0'.repeat(32)}` } } }];
        const next = answers.length > 1 ? answers.shift()! : answers[0]!;
        if (next === 'drop') {
          request.socket.destroy();
          return;
        }
        response.writeHead(next.status, { 'content-type': 'application/json', ...next.headers });
        response.end(next.body === undefined ? '' : JSON.stringify(next.body));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

const ACCOUNT = 'acct_0123456789abcdef0123456789abcdef';
const REQUEST_ID = `req_${'a'.repeat(32)}`;
const transaction = { object: 'transaction', transactionId: 'txn_1', status: 'COMPLETED' };
const envelope = (code: string, message: string) => ({ error: { code, message, requestId: REQUEST_ID } });

describe('@pfs/client', () => {
  let standIn: StandIn;
  let baseUrl: string;
  const waits: number[] = [];
  const sleep = async (ms: number) => void waits.push(ms);

  beforeEach(async () => {
    standIn = new StandIn();
    baseUrl = await standIn.start();
    waits.length = 0;
  });

  afterEach(() => standIn.stop());

  const faucet = (client: ReturnType<typeof createPfsClient>) =>
    client.api.POST('/v1/transactions/faucet', { body: { accountId: ACCOUNT, asset: 'USDC', amount: '10', chainName: 'ETHEREUM_SEPOLIA' } });

  it('authenticates every call and gives each mutation an Idempotency-Key, the same on each of its retries', async () => {
    standIn.answer('/v1/transactions/faucet', { status: 503, body: envelope('internal_error', 'ledger did not answer') }, 'drop', { status: 200, body: transaction });
    const client = createPfsClient({ baseUrl, apiKey: 'sk_test_key', sleep });
    expect(await ok(faucet(client))).toEqual(transaction);
    expect(standIn.seen).toHaveLength(3);
    const keys = standIn.seen.map((request) => request.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(keys)).toEqual(new Set([keys[0]]));
    expect(standIn.seen.every((request) => request.headers.authorization === 'Bearer sk_test_key')).toBe(true);
    expect(JSON.parse(standIn.seen[2]!.body)).toEqual({ accountId: ACCOUNT, asset: 'USDC', amount: '10', chainName: 'ETHEREUM_SEPOLIA' });
    // Backoff doubles between attempts.
    expect(waits).toEqual([250, 500]);

    // A second call is a new operation: a new key.
    await ok(faucet(client));
    expect(standIn.seen[3]!.headers['idempotency-key']).not.toBe(keys[0]);
  });

  it('keeps a key the caller chose, and sends none on a read', async () => {
    standIn.answer('/v1/transactions/faucet', { status: 200, body: transaction }).answer(`/v1/accounts/${ACCOUNT}`, { status: 200, body: { object: 'account', accountId: ACCOUNT } });
    const client = createPfsClient({ baseUrl, apiKey: 'sk_test_key', sleep });
    await client.api.POST('/v1/transactions/faucet', { body: { accountId: ACCOUNT, asset: 'USDC', amount: '1', chainName: 'ETHEREUM_SEPOLIA' }, params: { header: { 'Idempotency-Key': 'mine-1' } } });
    await client.api.GET('/v1/accounts/{accountId}', { params: { path: { accountId: ACCOUNT } } });
    expect(standIn.seen.map((request) => request.headers['idempotency-key'])).toEqual(['mine-1', undefined]);
  });

  it('waits out a 429 for its Retry-After, and a 409 while the first request with the key still runs', async () => {
    standIn.answer(
      '/v1/transactions/faucet',
      { status: 429, headers: { 'retry-after': '7' }, body: envelope('rate_limited', 'slow down') },
      { status: 409, body: envelope('idempotency_request_in_flight', 'still running') },
      { status: 200, body: transaction },
    );
    const client = createPfsClient({ baseUrl, apiKey: 'sk_test_key', sleep });
    expect(await ok(faucet(client))).toEqual(transaction);
    expect(waits).toEqual([7000, 500]);
  });

  it('rejects with a typed error carrying the envelope, once retries are spent or the error is final', async () => {
    standIn.answer(`/v1/accounts/${ACCOUNT}`, { status: 404, body: envelope('account_not_found', 'No account acct_…') });
    const client = createPfsClient({ baseUrl, apiKey: 'sk_test_key', sleep });
    const error = await client.api.GET('/v1/accounts/{accountId}', { params: { path: { accountId: ACCOUNT } } }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PfsApiError);
    expect(error).toMatchObject({ status: 404, code: 'account_not_found', message: 'No account acct_…', requestId: REQUEST_ID });
    expect(standIn.seen).toHaveLength(1);

    standIn.answer('/v1/transactions/faucet', { status: 503, body: envelope('internal_error', 'ledger did not answer') });
    const unavailable = await faucet(createPfsClient({ baseUrl, apiKey: 'sk_test_key', sleep, maxAttempts: 3 })).catch((caught: unknown) => caught);
    expect(unavailable).toMatchObject({ status: 503, code: 'internal_error' });
    expect(standIn.seen.filter((request) => request.url === '/v1/transactions/faucet')).toHaveLength(3);

    standIn.answer('/v1/assets', { status: 502, headers: { 'content-type': 'text/html' } });
    const proxy = await createPfsClient({ baseUrl, apiKey: 'k', sleep }).api.GET('/v1/assets').catch((caught: unknown) => caught);
    expect(proxy).toMatchObject({ status: 502, code: 'unexpected_response' });
  });

  it('acts for a client organization when asked', async () => {
    standIn.answer(`/v1/accounts/${ACCOUNT}`, { status: 200, body: { object: 'account', accountId: ACCOUNT } });
    const client = createPfsClient({ baseUrl, apiKey: 'sk_test_key', sleep }).onBehalfOf('org_0123456789abcdef0123456789abcdef');
    await client.api.GET('/v1/accounts/{accountId}', { params: { path: { accountId: ACCOUNT } } });
    expect(standIn.seen[0]!.headers['service-on-behalf-of']).toBe('org_0123456789abcdef0123456789abcdef');
  });

  it('walks a list through X-Next-Cursor, page after page', async () => {
    const page = (ids: string[], next?: string): Answer => ({
      status: 200,
      headers: next ? { 'x-next-cursor': next } : ({} as Record<string, string>),
      body: { object: 'list', data: ids.map((transactionId) => ({ transactionId })), hasMore: next !== undefined, nextCursor: next ?? null },
    });
    standIn.answer('/v1/transactions', page(['txn_3', 'txn_2'], 'c1'), page(['txn_1'], 'c2'), page([]));
    const client = createPfsClient({ baseUrl, apiKey: 'sk_test_key', sleep });
    const walked: string[] = [];
    for await (const item of paginate((cursor) => client.api.GET('/v1/transactions', { params: { query: { limit: 2, ...(cursor ? { cursor } : {}) } } }))) {
      walked.push(item.transactionId);
    }
    expect(walked).toEqual(['txn_3', 'txn_2', 'txn_1']);
    expect(standIn.seen.map((request) => request.url)).toEqual(['/v1/transactions?limit=2', '/v1/transactions?limit=2&cursor=c1', '/v1/transactions?limit=2&cursor=c2']);
  });

  describe('webhook verification', () => {
    const secret = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;
    const body = JSON.stringify({ type: 'transaction.status.updated', timestamp: new Date().toISOString(), data: { transaction_id: 'txn_1' } });
    const signed = (id: string, at: Date, payload = body) => {
      const seconds = String(Math.floor(at.getTime() / 1000));
      return { id, timestamp: seconds, signature: new Webhook(secret).sign(id, at, payload) };
    };

    it('verifies the webhook-* headers and their hook-* twins, and returns the event', () => {
      const { id, timestamp, signature } = signed('msg_1', new Date());
      const event = verifyWebhook<{ transaction_id: string }>(secret, body, { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signature });
      expect(event).toEqual(JSON.parse(body));
      expect(verifyWebhook(secret, Buffer.from(body), new Headers({ 'hook-id': id, 'hook-timestamp': timestamp, 'hook-signature': signature }))).toEqual(JSON.parse(body));
    });

    it('refuses a changed body, another secret, an old timestamp and missing headers', () => {
      const { id, timestamp, signature } = signed('msg_2', new Date());
      const headers = { 'hook-id': id, 'hook-timestamp': timestamp, 'hook-signature': signature };
      expect(() => verifyWebhook(secret, body.replace('txn_1', 'txn_2'), headers)).toThrow(WebhookVerificationError);
      expect(() => verifyWebhook(`whsec_${Buffer.from('another secret of 32 bytes!!!!!!').toString('base64')}`, body, headers)).toThrow(WebhookVerificationError);
      const old = signed('msg_3', new Date(Date.now() - 10 * 60_000));
      expect(() => verifyWebhook(secret, body, { 'hook-id': old.id, 'hook-timestamp': old.timestamp, 'hook-signature': old.signature })).toThrow(WebhookVerificationError);
      expect(() => verifyWebhook(secret, body, { 'hook-id': id, 'hook-timestamp': timestamp })).toThrow('missing webhook-signature');
    });
  });
});
