import { createServer, type Server } from 'node:http';

/** A readiness check: resolves when the dependency answers, rejects otherwise. */
export type ReadinessCheck = () => Promise<void>;

export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: Record<string, 'ok' | string>;
}

export async function runChecks(checks: Record<string, ReadinessCheck>, timeoutMs = 2000): Promise<HealthReport> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      try {
        await withTimeout(check(), timeoutMs);
        return [name, 'ok'] as const;
      } catch (error) {
        return [name, error instanceof Error ? error.message : 'failed'] as const;
      }
    }),
  );
  const report: HealthReport = { status: 'ok', checks: {} };
  for (const [name, result] of entries) {
    report.checks[name] = result;
    if (result !== 'ok') report.status = 'unavailable';
  }
  return report;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/**
 * The admin port of a service: `/healthz` (process alive) and `/readyz` (dependencies
 * reachable, queues consumed). No authentication, as api-decisions §1 says.
 */
export function startAdminServer(
  port: number,
  checks: Record<string, ReadinessCheck>,
  extra?: Record<string, () => Promise<{ contentType: string; body: string }>>,
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'ok' }));
      return;
    }
    if (path === '/readyz') {
      void runChecks(checks).then((report) => {
        res.writeHead(report.status === 'ok' ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(report));
      });
      return;
    }
    const handler = extra?.[path];
    if (handler) {
      void handler().then(
        ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
        () => res.writeHead(500).end(),
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'not_found' }));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => resolve(server));
  });
}
