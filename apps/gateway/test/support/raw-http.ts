import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  /** 0 when the server closed the connection without answering. */
  status: number;
  /** Lower-cased names; the last value of a repeated header. */
  headers: Record<string, string>;
  body: string;
  /** From the first byte sent until the server closed the connection. */
  closedAfterMs: number;
}

export interface RawStep {
  /** Bytes to write. */
  send?: string | Buffer;
  /** Then wait this long before the next step. */
  pauseMs?: number;
}

/**
 * Writes bytes to the gateway over a plain TCP socket, exactly as given (for what no HTTP client
 * will send: malformed framing, repeated headers, a body that never ends), and reads until the
 * server closes the connection or `timeoutMs` passes. The first response on the socket is parsed.
 */
export async function rawExchange(baseUrl: string, steps: RawStep[], timeoutMs = 20000): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const started = Date.now();
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
  socket.on('error', () => undefined); // a reset is a close here

  for (const step of steps) {
    if (socket.destroyed) break;
    if (step.send !== undefined) socket.write(step.send);
    if (step.pauseMs) await new Promise((resolve) => setTimeout(resolve, step.pauseMs));
  }
  const closedAfterMs = await Promise.race([closed, timeout(socket, timeoutMs)]);
  return { ...parseResponse(Buffer.concat(chunks).toString('utf8')), closedAfterMs };
}

async function timeout(socket: Socket, ms: number): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, ms).unref());
  socket.destroy();
  throw new Error(`the server did not close the connection within ${ms} ms`);
}

function parseResponse(raw: string): Omit<RawAnswer, 'closedAfterMs'> {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) return { status: 0, headers: {}, body: raw };
  const [statusLine = '', ...lines] = raw.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? Number.NaN);
  const rest = raw.slice(end + 4);
  return { status: Number(statusLine.split(' ')[1] ?? 0), headers, body: Number.isNaN(length) ? rest : rest.slice(0, length) };
}
