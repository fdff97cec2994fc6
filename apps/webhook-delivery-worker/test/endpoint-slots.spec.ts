import { randomUUID } from 'node:crypto';
import { createProducerConnection, type RedisClient } from '@pfs/messaging';
import { isolateQueues, testRedisUrl } from '@pfs/testing';
import { EndpointSlots, type EndpointSlotsOptions } from '../src/adapters/messaging/endpoint-slots';

const prefix = isolateQueues('dlv-endpoint-slots');

describe('EndpointSlots (in Redis, shared by every worker)', () => {
  const connections: RedisClient[] = [];
  /** A worker process's slots: its own connection, as each worker has. */
  const worker = (options: Partial<EndpointSlotsOptions> = {}) => {
    const connection = createProducerConnection(testRedisUrl(), 'endpoint-slots-spec');
    connections.push(connection);
    return new EndpointSlots(connection, { perEndpoint: 2, maxWaiting: 8, maxWaitMs: 10_000, leaseMs: 60_000, prefix, ...options }, randomUUID());
  };
  const endpoint = () => `ep_${randomUUID()}`;

  afterAll(() => connections.forEach((connection) => connection.disconnect()));

  it('holds an endpoint to its cap across workers, and a slot given back by one goes to a job waiting in another', async () => {
    const [a, b] = [worker(), worker()];
    const id = endpoint();
    const first = await a.acquire(id);
    const second = await b.acquire(id);
    expect(first && second).toBeTruthy();
    expect(await a.inFlight(id)).toBe(2);
    let granted = false;
    const waiting = a.acquire(id).then((slot) => {
      granted = true;
      return slot;
    });
    // Another endpoint is not held up by this one's cap.
    const other = await b.acquire(endpoint());
    expect(other).not.toBeNull();
    expect(granted).toBe(false);
    await b.release(second!);
    const third = await waiting;
    expect(third).not.toBeNull();
    expect(await a.inFlight(id)).toBe(2);
    await Promise.all([a.release(first!), a.release(third!)]);
    expect(await a.inFlight(id)).toBe(0);
  });

  it('sends a waiting job back when no slot of the endpoint moves for maxWaitMs, and at once after that (it hangs)', async () => {
    const slots = worker({ perEndpoint: 1, maxWaitMs: 300 });
    const id = endpoint();
    const held = await slots.acquire(id);
    expect(held).not.toBeNull();
    expect(await slots.acquire(id)).toBeNull();
    expect(await slots.acquire(id)).toBeNull();
    // Given back: the endpoint moves, and takes a job again.
    await slots.release(held!);
    expect(await slots.acquire(id)).not.toBeNull();
  });

  it('frees the slots of a worker killed before giving them back once their lease ends', async () => {
    const id = endpoint();
    const killed = worker({ perEndpoint: 1, leaseMs: 200 });
    expect(await killed.acquire(id)).not.toBeNull();
    // Never released. Another worker gets the slot once the lease has ended.
    const survivor = worker({ perEndpoint: 1, leaseMs: 200, maxWaitMs: 60_000 });
    expect(await survivor.acquire(id)).not.toBeNull();
  });

  it('refuses at once when maxWaiting jobs of this worker already wait', async () => {
    const slots = worker({ perEndpoint: 1, maxWaiting: 1 });
    const id = endpoint();
    const held = await slots.acquire(id);
    const waiting = slots.acquire(id);
    expect(await slots.acquire(id)).toBeNull();
    await slots.release(held!);
    expect(await waiting).not.toBeNull();
  });

  it('keeps a slot held past half its lease (a job of several attempts): renewed, it is never freed while held', async () => {
    const slots = worker({ perEndpoint: 1, leaseMs: 400 });
    const other = worker({ perEndpoint: 1, leaseMs: 400, maxWaitMs: 100 });
    const id = endpoint();
    const slot = await slots.acquire(id);
    expect(slot).not.toBeNull();
    // Renewed at every attempt past half the lease: after twice the lease it still holds the endpoint.
    for (let step = 0; step < 8; step += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await slots.keep(slot!);
    }
    expect(await other.acquire(id)).toBeNull();
    await slots.release(slot!);
    expect(await other.acquire(id)).not.toBeNull();
  });
});

