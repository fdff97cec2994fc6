import { ProcessEndpointSlots } from './process-endpoint-slots';

describe('ProcessEndpointSlots', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const settled = async <T>(promise: Promise<T>): Promise<T | 'pending'> => {
    const marker = Symbol('pending');
    const result = await Promise.race([promise, Promise.resolve().then(() => marker)]);
    return result === marker ? 'pending' : (result as T);
  };

  it('holds an endpoint to its cap and hands a freed slot to the first waiter, the count in flight unchanged', async () => {
    const slots = new ProcessEndpointSlots({ perEndpoint: 2, maxWaiting: 4, maxWaitMs: 1000 });
    expect(await slots.acquire('ep_a')).toBe(true);
    expect(await slots.acquire('ep_a')).toBe(true);
    const first = slots.acquire('ep_a');
    const second = slots.acquire('ep_a');
    expect(await settled(first)).toBe('pending');
    // Another endpoint is not held up by this one's cap.
    expect(await slots.acquire('ep_b')).toBe(true);
    slots.release('ep_a');
    expect(await first).toBe(true);
    expect(await settled(second)).toBe('pending');
    expect(slots.inFlight('ep_a')).toBe(2);
    slots.release('ep_a');
    expect(await second).toBe(true);
    slots.release('ep_a');
    slots.release('ep_a');
    expect(slots.inFlight('ep_a')).toBe(0);
    expect(await slots.acquire('ep_a')).toBe(true);
  });

  it('sends a waiter back to the queue after maxWaitMs, and its slot is not lost', async () => {
    const slots = new ProcessEndpointSlots({ perEndpoint: 1, maxWaiting: 4, maxWaitMs: 1000 });
    expect(await slots.acquire('ep_hang')).toBe(true);
    const waiting = slots.acquire('ep_hang');
    jest.advanceTimersByTime(999);
    expect(await settled(waiting)).toBe('pending');
    jest.advanceTimersByTime(1);
    expect(await waiting).toBe(false);
    slots.release('ep_hang');
    expect(slots.inFlight('ep_hang')).toBe(0);
    expect(await slots.acquire('ep_hang')).toBe(true);
  });

  it('refuses at once beyond maxWaiting jobs waiting across endpoints', async () => {
    const slots = new ProcessEndpointSlots({ perEndpoint: 1, maxWaiting: 2, maxWaitMs: 1000 });
    await slots.acquire('ep_a');
    await slots.acquire('ep_b');
    const a = slots.acquire('ep_a');
    const b = slots.acquire('ep_b');
    expect(await slots.acquire('ep_a')).toBe(false);
    slots.release('ep_a');
    slots.release('ep_b');
    expect([await a, await b]).toEqual([true, true]);
    // The waiters are served: room to wait again.
    const again = slots.acquire('ep_a');
    expect(await settled(again)).toBe('pending');
    slots.release('ep_a');
    expect(await again).toBe(true);
  });

  it('sends jobs back at once for an endpoint none of whose slots has come free for maxWaitMs (it hangs)', async () => {
    const slots = new ProcessEndpointSlots({ perEndpoint: 2, maxWaiting: 8, maxWaitMs: 1000 });
    expect(await slots.acquire('ep_hang')).toBe(true);
    jest.advanceTimersByTime(600);
    expect(await slots.acquire('ep_hang')).toBe(true);
    // The last slot was taken 0 ms ago: a job waits.
    const waiting = slots.acquire('ep_hang');
    jest.advanceTimersByTime(1000);
    expect(await waiting).toBe(false);
    // Nothing has come free for 1 s since: the next job goes back without holding a slot.
    expect(await settled(slots.acquire('ep_hang'))).toBe(false);
    // An attempt ends: the endpoint moves again, and a job waits for it again.
    slots.release('ep_hang');
    expect(await slots.acquire('ep_hang')).toBe(true);
    const next = slots.acquire('ep_hang');
    expect(await settled(next)).toBe('pending');
    slots.release('ep_hang');
    expect(await next).toBe(true);
  });
});
