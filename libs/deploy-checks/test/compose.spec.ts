import { resolve } from 'node:path';
import { isolateQueues } from '@pfs/testing';
import { parseDockerfile, stageNamed } from './support/dockerfile';
import { appNames, appPort, dictAt, isDict, listAt, loadYaml, readRepoFile, repoPath, ROOT, SECRET_NAME, type Dict } from './support/repo';

isolateQueues('deploy-compose');

const COMPOSE = 'docker/compose.yaml';
const apps = appNames();
let compose: unknown;
let services: Dict;

beforeAll(() => {
  compose = loadYaml(COMPOSE);
  services = dictAt(compose, 'services');
});

function service(name: string): Dict {
  const found = services[name];
  if (!isDict(found)) throw new Error(`${COMPOSE} has no service ${name}`);
  return found;
}

/** A service's environment as a map (compose accepts a map or a list of KEY=value). */
function environment(name: string): Record<string, string> {
  const env = service(name).environment;
  if (Array.isArray(env)) {
    return Object.fromEntries(env.map((entry) => String(entry).split(/=(.*)/s).slice(0, 2)));
  }
  return Object.fromEntries(Object.entries(isDict(env) ? env : {}).map(([key, value]) => [key, String(value)]));
}

function healthcheckCommand(name: string): string {
  const test = dictAt(service(name), 'healthcheck').test;
  return Array.isArray(test) ? test.join(' ') : String(test ?? '');
}

describe('docker/compose.yaml', () => {
  it('runs PostgreSQL 16 and Redis 7 with health checks', () => {
    expect(service('postgres').image).toBe('postgres:16');
    expect(healthcheckCommand('postgres')).toContain('pg_isready');
    expect(service('redis').image).toBe('redis:7');
    expect(healthcheckCommand('redis')).toContain('redis-cli ping');
  });

  it('has a one-shot migrate service built from the migrate target, after PostgreSQL is healthy', () => {
    const migrate = service('migrate');
    expect(dictAt(migrate, 'build').target).toBe('migrate');
    expect(dictAt(migrate, 'depends_on.postgres').condition).toBe('service_healthy');
    expect(migrate.restart ?? 'no').toBe('no');
    expect(environment('migrate').DATABASE_URL).toMatch(/@postgres:5432\//);
  });

  it('builds every image from docker/Dockerfile at the repository root, each from an existing target', () => {
    const dockerfile = parseDockerfile(readRepoFile('docker/Dockerfile'));
    for (const [name, value] of Object.entries(services)) {
      const build = dictAt(value, 'build');
      if (Object.keys(build).length === 0) continue;
      expect({ name, context: resolve(repoPath('docker'), String(build.context)) }).toEqual({ name, context: ROOT });
      expect({ name, dockerfile: build.dockerfile }).toEqual({ name, dockerfile: 'docker/Dockerfile' });
      expect({ name, target: stageNamed(dockerfile, String(build.target))?.name }).toEqual({ name, target: build.target });
    }
  });

  it('has a service for every app under apps/', () => {
    expect(apps.filter((app) => !(app in services))).toEqual([]);
  });

  describe.each(apps)('the %s service', (app) => {
    const { variable, port } = appPort(app);

    it('is its own Dockerfile target', () => {
      expect(dictAt(service(app), 'build').target).toBe(app);
    });

    it('starts after the migration succeeded and Redis is healthy', () => {
      expect(dictAt(service(app), 'depends_on.migrate').condition).toBe('service_completed_successfully');
      expect(dictAt(service(app), 'depends_on.redis').condition).toBe('service_healthy');
    });

    it(`checks its health on /readyz at ${variable}=${port}`, () => {
      expect(environment(app)[variable]).toBe(String(port));
      expect(healthcheckCommand(app)).toContain(`http://127.0.0.1:${port}/readyz`);
    });

    it('gets the settings every app reads', () => {
      expect(Object.keys(environment(app))).toEqual(
        expect.arrayContaining(['SERVICE_ENV', 'DATABASE_URL', 'REDIS_URL', 'QUEUE_PREFIX', 'API_KEY_PEPPER', 'CURSOR_SECRET', 'LOG_LEVEL']),
      );
      expect(environment(app).REDIS_URL).toBe('redis://redis:6379');
    });
  });

  it('publishes the gateway on port 3000', () => {
    expect(listAt(service('gateway'), 'ports').map(String)).toContain('3000:3000');
  });

  it('holds no real secret: credentials are dev-only defaults that the environment can override', () => {
    const offenders: string[] = [];
    for (const name of Object.keys(services)) {
      for (const [key, value] of Object.entries(environment(name))) {
        if (!SECRET_NAME.test(key)) continue;
        // Every default inside ${VAR:-default} must say it is for development only.
        const defaults = [...value.matchAll(/\$\{\w+:-([^}]*)\}/g)].map((match) => match[1]);
        const literal = value.replace(/\$\{[^}]*\}/g, '');
        const credentials = /^[a-z]+:\/\/[^/@]*:([^@]*)@/i.exec(literal);
        const wholeIsLiteral = !value.includes('${');
        if (defaults.some((fallback) => !fallback.includes('dev-only'))) offenders.push(`${name}.${key}: default is not marked dev-only`);
        if (credentials && credentials[1] !== '') offenders.push(`${name}.${key}: literal password in the URL`);
        if (wholeIsLiteral && !/_URL$/.test(key)) offenders.push(`${name}.${key}: literal secret`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
