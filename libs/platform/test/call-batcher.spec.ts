import { callBatcher } from '../src/call-batcher';

describe('callBatcher', () => {
  /** A `run` whose batches end when the test says so. */
  function gatedRun() {
    const batches: Array<{ keys: readonly number[]; finish: () => void }> = [];
    const run = (keys: readonly number[]) =>
      new Promise<Array<number | Error>>((resolve) => {
        batches.push({ keys, finish: () => resolve(keys.map((key) => (key < 0 ? new Error(`bad ${key}`) : key * 10))) });
      });
    return { batches, run };
  }
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('a lone call goes at the next turn; calls made while the batches in flight are at their limit wait and share one batch', async () => {
    const { batches, run } = gatedRun();
    const call = callBatcher(run, { maxInFlight: 1, maxBatchSize: 100 });
    const first = call(1);
    await turn();
    expect(batches.map((batch) => batch.keys)).toEqual([[1]]);
    const waiting = [call(2), call(3)];
    await turn();
    const later = call(4);
    await turn();
    expect(batches).toHaveLength(1);
    batches[0]?.finish();
    await expect(first).resolves.toBe(10);
    await turn();
    expect(batches.map((batch) => batch.keys)).toEqual([[1], [2, 3, 4]]);
    batches[1]?.finish();
    await expect(Promise.all([...waiting, later])).resolves.toEqual([20, 30, 40]);
  });

  it('an Error answered for one key rejects that call only; a batch that throws rejects all of its calls', async () => {
    const { batches, run } = gatedRun();
    const call = callBatcher(run, { maxInFlight: 2, maxBatchSize: 100 });
    const answers = [call(1), call(-1)];
    await turn();
    batches[0]?.finish();
    await expect(answers[0]).resolves.toBe(10);
    await expect(answers[1]).rejects.toThrow('bad -1');

    const failing = callBatcher(async () => {
      throw new Error('connection lost');
    }, { maxInFlight: 1, maxBatchSize: 100 });
    await expect(Promise.all([failing(1), failing(2)])).rejects.toThrow('connection lost');
    // The slot it took is free again: the next call runs.
    const next = failing(3);
    await expect(next).rejects.toThrow('connection lost');
  });

  it('a batch carries at most maxBatchSize calls', async () => {
    const { batches, run } = gatedRun();
    const call = callBatcher(run, { maxInFlight: 4, maxBatchSize: 3 });
    const answers = [1, 2, 3, 4, 5].map((key) => call(key));
    await turn();
    expect(batches.map((batch) => batch.keys)).toEqual([[1, 2, 3], [4, 5]]);
    for (const batch of batches) batch.finish();
    await expect(Promise.all(answers)).resolves.toEqual([10, 20, 30, 40, 50]);
  });
});
