import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startBalancer, type Balancer } from './balancer';

/** Every app of the stack: its workspace folder and the port its health endpoints answer on. */
export interface AppSpec {
  name: string;
  dir: string;
  /** The PostgreSQL schema it owns (no other app reads it); the gateway has none. */
  schema?: string;
  /** Env var naming its HTTP port (PORT for the gateway, ADMIN_PORT for the rest). */
  portVar: 'PORT' | 'ADMIN_PORT';
  defaultPort: number;
  /** The gateway's admin port (`ADMIN_PORT`: /metrics, /healthz, /readyz), beside its public `PORT`; the services' only port is their admin port. */
  defaultAdminPort?: number;
}

export const APPS: readonly AppSpec[] = [
  { name: 'organization-service', dir: 'apps/organization-service', schema: 'organization', portVar: 'ADMIN_PORT', defaultPort: 3101 },
  { name: 'ledger-service', dir: 'apps/ledger-service', schema: 'ledger', portVar: 'ADMIN_PORT', defaultPort: 3102 },
  { name: 'quote-service', dir: 'apps/quote-service', schema: 'quote', portVar: 'ADMIN_PORT', defaultPort: 3103 },
  { name: 'beneficiary-service', dir: 'apps/beneficiary-service', schema: 'beneficiary', portVar: 'ADMIN_PORT', defaultPort: 3104 },
  { name: 'webhook-delivery-service', dir: 'apps/webhook-delivery-service', schema: 'webhook', portVar: 'ADMIN_PORT', defaultPort: 3105 },
  { name: 'webhook-delivery-worker', dir: 'apps/webhook-delivery-worker', schema: 'delivery', portVar: 'ADMIN_PORT', defaultPort: 3106 },
  { name: 'gateway', dir: 'apps/gateway', portVar: 'PORT', defaultPort: 3000, defaultAdminPort: 3100 },
];

export interface RunningApp {
  spec: AppSpec;
  /** Its key in `RunningStack.apps`: the app's name for the first replica, `<name>-<n>` for the n-th. */
  instance: string;
  /** 1 for the first replica. */
  replica: number;
  port: number;
  url: string;
  /** Where its /metrics answers: the admin port (for a service, the same as `url`). */
  adminUrl: string;
  process: ChildProcess;
  /** Everything the process wrote, for assertions on logs. */
  output: string[];
}

export interface StartAppsOptions {
  /** Repository root (holds apps/). */
  root: string;
  env: NodeJS.ProcessEnv;
  /** Fixed ports (the up command) or free ones chosen by the OS (tests). */
  ports?: 'default' | 'random';
  /** Ports that win over either choice, by app name (the up command honours PORT for the gateway). */
  portOverrides?: Record<string, number>;
  /** Apps to start; all of them by default. */
  only?: string[];
  /**
   * Processes of every service and of the worker (default 1). With two or more, two gateways
   * start behind a local round-robin balancer on the gateway's port (`gatewayUrl`); replicas
   * beyond the first, and the gateways behind the balancer, listen on free ports.
   */
  replicas?: number;
  /**
   * Settings for one app's processes on top of `env`, by app name: a service's own `DATABASE_URL`
   * when it lives in a database of its own.
   */
  envByApp?: Record<string, NodeJS.ProcessEnv>;
  /** Where each line of output goes besides `output` (the up command prefixes and prints); `app` is the instance. */
  onLine?: (app: string, line: string) => void;
  readyTimeoutMs?: number;
}

export interface RunningStack {
  /** By instance: `ledger-service`, `ledger-service-2`, ... */
  apps: Map<string, RunningApp>;
  /** Where partners' requests go: the gateway, or the balancer in front of the gateways. */
  gatewayUrl: string | undefined;
  /** Each gateway's own URL (one, or two behind the balancer). */
  gatewayUrls: string[];
  stopApp(instance: string, signal?: NodeJS.Signals): Promise<void>;
  /** Starts a stopped instance again; `env` overrides the stack's environment for this process only. */
  startApp(instance: string, env?: NodeJS.ProcessEnv): Promise<RunningApp>;
  stop(): Promise<void>;
}

/** The instance name of an app's n-th replica. */
export function instanceName(app: string, replica: number): string {
  return replica === 1 ? app : `${app}-${replica}`;
}

interface Instance {
  spec: AppSpec;
  name: string;
  replica: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function waitForReady(url: string, timeoutMs: number, isAlive: () => boolean = () => true, path = '/readyz'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`process exited before ${url}${path} answered`);
    try {
      const response = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url}${path} did not answer 200 within ${timeoutMs} ms`);
}

/** The line every app logs (at info) once it listens: `gateway listening`, `<service> service started`. */
const STARTED_LINE = /"msg":"(gateway listening|[a-z-]+ service started)"/;

const QUIET_LEVELS = new Set(['warn', 'error', 'fatal', 'silent']);

async function waitForStartedLine(app: RunningApp, deadline: number, isAlive: () => boolean): Promise<void> {
  while (!app.output.some((line) => STARTED_LINE.test(line))) {
    if (!isAlive()) throw new Error(`process exited before it logged that it listens on ${app.url}`);
    if (Date.now() > deadline) throw new Error(`${app.url}/readyz answered, but the process never logged that it listens`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * How each app's Node runs, as the images run it (docker/Dockerfile's CMD and MALLOC_ARENA_MAX):
 * a 4 MB young generation, one V8 helper thread, Prisma's WebAssembly query compiler kept on V8's
 * baseline compiler (optimizing it in the background holds about 60 MB per process), and two
 * malloc arenas. Seven idle apps then take about 0.9 GB of RSS together, where Node's defaults
 * take about 1.45 GB; the CPU per request did not move measurably. Under load the old generation
 * grows to 1.25 × what survived the last full collection (V8's default lets it reach several
 * times that: the delivery worker held 250–300 MB after a burst of deliveries, 160 MB with this),
 * and an idle process gives memory back after 2 s instead of 8.
 */
export const APP_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--v8-pool-size=1', '--liftoff-only', '--heap-growing-percent=25', '--gc-memory-reducer-start-delay-ms=2000'];
export const APP_MALLOC_ARENA_MAX = '2';

/**
 * Starts each built app (`node dist/main.js`) as its own process and waits for its `/readyz`.
 * Services start before the gateway, whose readiness needs their queues consumed.
 */
export async function startApps(options: StartAppsOptions): Promise<RunningStack> {
  const replicas = options.replicas ?? 1;
  if (!Number.isInteger(replicas) || replicas < 1) throw new Error(`replicas must be a whole number of at least 1, not ${replicas}`);
  const apps = new Map<string, RunningApp>();
  const ports = new Map<string, number>();
  const adminPorts = new Map<string, number>();
  const selected = APPS.filter((spec) => !options.only || options.only.includes(spec.name));
  const balanced = replicas > 1 && selected.some((spec) => spec.name === 'gateway');
  const instances: Instance[] = selected.flatMap((spec) => {
    const count = spec.name === 'gateway' ? (balanced ? 2 : 1) : replicas;
    return Array.from({ length: count }, (_, index) => ({ spec, name: instanceName(spec.name, index + 1), replica: index + 1 }));
  });
  for (const { spec, name, replica } of instances) {
    // The first replica keeps the app's fixed ports; the rest, and gateways behind the balancer, take free ones.
    const fixed = options.ports !== 'random' && replica === 1 && !(balanced && spec.name === 'gateway');
    ports.set(name, (replica === 1 && !balanced ? options.portOverrides?.[spec.name] : undefined) ?? (fixed ? spec.defaultPort : await freePort()));
    if (spec.defaultAdminPort !== undefined) adminPorts.set(name, options.ports !== 'random' && replica === 1 ? spec.defaultAdminPort : await freePort());
  }

  const launch = async (instance: Instance, extraEnv: NodeJS.ProcessEnv = {}, attempt = 1): Promise<RunningApp> => {
    const { spec, name, replica } = instance;
    const port = ports.get(name) ?? spec.defaultPort;
    const adminPort = adminPorts.get(name);
    const child = spawn(process.execPath, [...APP_NODE_FLAGS, join(options.root, spec.dir, 'dist/main.js')], {
      cwd: join(options.root, spec.dir),
      env: {
        MALLOC_ARENA_MAX: APP_MALLOC_ARENA_MAX,
        ...process.env,
        ...options.env,
        ...options.envByApp?.[spec.name],
        ...extraEnv,
        [spec.portVar]: String(port),
        ...(adminPort === undefined ? {} : { ADMIN_PORT: String(adminPort) }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const url = `http://127.0.0.1:${port}`;
    const adminUrl = adminPort === undefined ? url : `http://127.0.0.1:${adminPort}`;
    const app: RunningApp = { spec, instance: name, replica, port, url, adminUrl, process: child, output: [] };
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        app.output.push(line);
        options.onLine?.(name, line);
      }
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    apps.set(name, app);
    const alive = () => child.exitCode === null && child.signalCode === null;
    const logsStart = !QUIET_LEVELS.has(String({ ...process.env, ...options.env, ...extraEnv }.LOG_LEVEL ?? 'info'));
    try {
      const deadline = Date.now() + (options.readyTimeoutMs ?? 30000);
      // Without every service, the gateway's full readiness never comes: its own scope then.
      const readyPath = spec.name === 'gateway' && selected.length < APPS.length ? '/readyz?scope=gateway' : '/readyz';
      await waitForReady(app.url, deadline - Date.now(), alive, readyPath);
      // Another process may hold the port by now (two stacks picking the same free port) and
      // answer /readyz in our child's place: ready means our child said it is listening too.
      if (logsStart) await waitForStartedLine(app, deadline, alive);
    } catch (error) {
      // A random port can be taken between freePort() and the app's listen (by an outgoing
      // connection's ephemeral port, or another test's stack): take new ports and start again.
      if ((options.ports === 'random' || replica > 1 || balanced) && attempt < 3 && app.output.some((line) => line.includes('EADDRINUSE'))) {
        ports.set(name, await freePort());
        if (adminPort !== undefined) adminPorts.set(name, await freePort());
        return launch(instance, extraEnv, attempt + 1);
      }
      throw new Error(`${name}: ${(error as Error).message}\n${app.output.slice(-20).join('\n')}`, { cause: error });
    }
    return app;
  };

  const stopApp = async (name: string, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    const app = apps.get(name);
    if (!app || app.process.exitCode !== null || app.process.signalCode !== null) return;
    // 'close', not 'exit': by then every line the app wrote has been read into its output.
    const exited = new Promise<void>((resolve) => app.process.once('close', () => resolve()));
    app.process.kill(signal);
    const timer = setTimeout(() => app.process.kill('SIGKILL'), 15000);
    await exited;
    clearTimeout(timer);
  };

  let balancer: Balancer | undefined;
  const gateways = instances.filter((instance) => instance.spec.name === 'gateway');
  const stack: RunningStack = {
    apps,
    gatewayUrl: undefined,
    gatewayUrls: [],
    stopApp,
    startApp: async (name, env) => {
      const instance = instances.find((candidate) => candidate.name === name);
      if (!instance) throw new Error(`unknown app instance ${name} (${instances.map((candidate) => candidate.name).join(', ')})`);
      return launch(instance, env);
    },
    stop: async () => {
      await balancer?.close();
      // The gateways first, so no request reaches a stopping service.
      const order = [...apps.keys()].sort((a, b) => Number(apps.get(b)?.spec.name === 'gateway') - Number(apps.get(a)?.spec.name === 'gateway'));
      for (const name of order) await stopApp(name);
    },
  };

  try {
    await Promise.all(instances.filter((instance) => instance.spec.name !== 'gateway').map((instance) => launch(instance)));
    const started = await Promise.all(gateways.map((instance) => launch(instance)));
    stack.gatewayUrls = started.map((app) => app.url);
    if (balanced) {
      const gatewayPort = options.portOverrides?.gateway ?? (options.ports === 'random' ? 0 : (gateways[0]?.spec.defaultPort ?? 3000));
      balancer = await startBalancer(gatewayPort, () => started.map((app) => apps.get(app.instance)?.port ?? app.port));
      stack.gatewayUrl = `http://127.0.0.1:${balancer.port}`;
    } else {
      stack.gatewayUrl = stack.gatewayUrls[0];
    }
  } catch (error) {
    await stack.stop();
    throw error;
  }
  return stack;
}
