import type { Redis } from 'ioredis';

type Chunk = Buffer | string;

/**
 * From now on, the text of each write the connection's current socket hands to the operating
 * system: Node's writable stream calls `_write` for one chunk and `_writev` for everything
 * buffered at once, so each entry is one system call.
 */
export function recordWrites(client: Redis): string[] {
  const stream = client.stream as typeof client.stream & {
    _write: (chunk: Chunk, ...rest: unknown[]) => void;
    _writev: (chunks: Array<{ chunk: Chunk }>, ...rest: unknown[]) => void;
  };
  const writes: string[] = [];
  const write = stream._write;
  const writev = stream._writev;
  stream._write = function (this: unknown, chunk, ...rest) {
    writes.push(chunk.toString());
    return write.call(this, chunk, ...rest);
  };
  stream._writev = function (this: unknown, chunks, ...rest) {
    writes.push(chunks.map(({ chunk }) => chunk.toString()).join(''));
    return writev.call(this, chunks, ...rest);
  };
  return writes;
}
