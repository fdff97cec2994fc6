interface Endpoint {
  busy: number;
  waiting: Waiter[];
  /** When a slot of this endpoint was last taken from free or given back (ms). */
  movedAt: number;
}

interface Waiter {
  grant(granted: boolean): void;
  timer: NodeJS.Timeout;
}

export interface ProcessEndpointSlotsOptions {
  /** Attempts in flight to one endpoint at once (WEBHOOK_ENDPOINT_CONCURRENCY). */
  perEndpoint: number;
  /** Jobs waiting for a slot at once, across endpoints: each holds one of the worker's slots meanwhile. */
  maxWaiting: number;
  /**
   * How long a job waits for a slot before it is sent back to the queue's delayed set; an endpoint
   * none of whose slots has come free for this long is stalled, and its jobs go back at once.
   */
  maxWaitMs: number;
}

/**
 * The in-process half of `EndpointSlots`: at most `perEndpoint` attempts to one endpoint at once
 * in this process, so only that many of its jobs ask Redis for the endpoint. A job over the cap waits
 * here for a slot, first come first served, while the endpoint's slots keep coming free: a busy
 * but healthy endpoint's burst is served within milliseconds, where sending each job over the cap
 * back to the delayed set (and its backoff) held deliveries for seconds. An endpoint that hangs
 * stops freeing slots: its waiters go back to the queue after `maxWaitMs`, and its later jobs at
 * once, so after that moment it holds only its cap of the worker's slots.
 */
export class ProcessEndpointSlots {
  private readonly endpoints = new Map<string, Endpoint>();
  private waitingTotal = 0;

  constructor(private readonly options: ProcessEndpointSlotsOptions) {}

  /** True once a slot is held (release it), false when the job should go back to the queue. */
  acquire(endpointId: string): Promise<boolean> {
    let endpoint = this.endpoints.get(endpointId);
    if (!endpoint) {
      endpoint = { busy: 0, waiting: [], movedAt: 0 };
      this.endpoints.set(endpointId, endpoint);
    }
    const now = Date.now();
    if (endpoint.busy < this.options.perEndpoint) {
      endpoint.busy += 1;
      endpoint.movedAt = now;
      return Promise.resolve(true);
    }
    if (this.waitingTotal >= this.options.maxWaiting || now - endpoint.movedAt >= this.options.maxWaitMs) return Promise.resolve(false);
    const waiting = endpoint.waiting;
    this.waitingTotal += 1;
    return new Promise<boolean>((resolve) => {
      const waiter: Waiter = {
        grant: (granted) => {
          this.waitingTotal -= 1;
          resolve(granted);
        },
        timer: setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.grant(false);
        }, this.options.maxWaitMs),
      };
      waiting.push(waiter);
    });
  }

  release(endpointId: string): void {
    const endpoint = this.endpoints.get(endpointId);
    if (!endpoint) return;
    endpoint.movedAt = Date.now();
    const next = endpoint.waiting.shift();
    if (next) {
      // The slot passes straight to the next waiter: the count of attempts in flight stays.
      clearTimeout(next.timer);
      next.grant(true);
      return;
    }
    endpoint.busy -= 1;
    if (endpoint.busy <= 0) this.endpoints.delete(endpointId);
  }

  /** Attempts in flight to the endpoint (for tests and metrics). */
  inFlight(endpointId: string): number {
    return this.endpoints.get(endpointId)?.busy ?? 0;
  }
}
