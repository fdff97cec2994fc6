import { batchedReads, inKeyOrder } from '../src/batched-reads';

describe('batchedReads', () => {
  it('reads made together share a batch outside a transaction; inside one each runs alone at once', async () => {
    const batches: Array<readonly string[]> = [];
    let inTransaction = false;
    const read = batchedReads(async (keys: readonly string[]) => {
      batches.push(keys);
      return keys.map((key) => key.toUpperCase());
    }, () => inTransaction);
    await expect(Promise.all([read('a'), read('b'), read('c')])).resolves.toEqual(['A', 'B', 'C']);
    expect(batches).toEqual([['a', 'b', 'c']]);
    inTransaction = true;
    await expect(Promise.all([read('d'), read('e')])).resolves.toEqual(['D', 'E']);
    expect(batches.slice(1)).toEqual([['d'], ['e']]);
  });
});

describe('inKeyOrder', () => {
  it("puts a read's rows back in its keys' order, one per key, undefined where none matched (a key asked twice gets the row twice)", () => {
    const rows = [{ id: 'c', n: 3 }, { id: 'a', n: 1 }];
    expect(inKeyOrder(['a', 'b', 'c', 'a'], rows, (row) => row.id)).toEqual([rows[1], undefined, rows[0], rows[1]]);
  });
});
