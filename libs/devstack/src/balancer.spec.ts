import { createServer, type Server } from 'node:http';
import { startBalancer, type Balancer } from './balancer';

/** An HTTP server that answers its own name, on a free port. */
async function named(name: string): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => response.end(body ? `${name}:${body}` : name));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, port: (server.address() as { port: number }).port };
}

const ask = async (balancer: Balancer) => {
  // A new connection each time: the balancer chooses per connection.
  const response = await fetch(`http://127.0.0.1:${balancer.port}/`, { headers: { connection: 'close' } });
  return response.text();
};

describe('the local balancer in front of the gateways', () => {
  it('sends each connection to the next target in turn, the request body and answer intact', async () => {
    const [a, b] = await Promise.all([named('a'), named('b')]);
    const balancer = await startBalancer(0, () => [a.port, b.port]);
    try {
      const answers = [];
      for (let i = 0; i < 4; i += 1) answers.push(await ask(balancer));
      expect(answers).toEqual(['a', 'b', 'a', 'b']);
      const posted = await fetch(`http://127.0.0.1:${balancer.port}/`, { method: 'POST', body: 'x'.repeat(100_000), headers: { connection: 'close' } });
      expect(await posted.text()).toBe(`a:${'x'.repeat(100_000)}`);
    } finally {
      await balancer.close();
      a.server.close();
      b.server.close();
    }
  });

  it('passes a connection on to the next target when one refuses it (stopped or restarting)', async () => {
    const [a, b] = await Promise.all([named('a'), named('b')]);
    const stopped = a.port;
    await new Promise<void>((resolve) => a.server.close(() => resolve()));
    const balancer = await startBalancer(0, () => [stopped, b.port]);
    try {
      expect([await ask(balancer), await ask(balancer), await ask(balancer)]).toEqual(['b', 'b', 'b']);
    } finally {
      await balancer.close();
      b.server.close();
    }
  });
});
