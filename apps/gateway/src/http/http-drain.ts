import type { Server } from 'node:http';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** How often idle keep-alive connections are closed while in-flight requests finish. */
const IDLE_SWEEP_MS = 100;
/** The longest the drain waits, once the connections have ended, for the last access-log lines. */
const LAST_LINES_BOUND_MS = 2000;

/**
 * Stops the HTTP side of the gateway: no new connections, every request already received is
 * answered in full (Fastify's close waits for them; `return503OnClosing: false` serves those
 * still arriving on open connections, with `Connection: close`). A keep-alive connection whose
 * request finishes after close began would otherwise sit idle until KEEP_ALIVE_TIMEOUT_MS (65 s) and
 * hold the process past its grace period: they are closed as soon as they are idle. It returns
 * once every request received has written its access-log line.
 */
export async function drainHttp(app: NestFastifyApplication): Promise<void> {
  const server = app.getHttpServer() as Server;
  const instance = app.getHttpAdapter().getInstance();
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  try {
    await instance.close();
  } finally {
    clearInterval(sweep);
  }
  // A response's hooks can run after its connection ended: its line is written before 'stopped'.
  await instance.requestsInFlight.settled(LAST_LINES_BOUND_MS);
}
