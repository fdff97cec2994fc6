import { Queue } from 'bullmq';
import { ServiceUnavailableError } from '../../src';

/**
 * The ServiceUnavailableError of a send that failed fast: refused before its job was queued,
 * so without waiting for any timeout; undefined for any other outcome. Told apart by what
 * happened, not by how long it took, so a busy machine cannot make a fast failure look slow.
 */
export async function failedFast(requestId: string, send: () => Promise<unknown>): Promise<ServiceUnavailableError | undefined> {
  const add = jest.spyOn(Queue.prototype, 'add');
  try {
    const outcome = await send().then(
      () => 'answered',
      (error: unknown) => error,
    );
    const queued = add.mock.calls.some(([, data]) => (data as { meta?: { requestId?: string } } | undefined)?.meta?.requestId === requestId);
    return outcome instanceof ServiceUnavailableError && !queued ? outcome : undefined;
  } finally {
    add.mockRestore();
  }
}
