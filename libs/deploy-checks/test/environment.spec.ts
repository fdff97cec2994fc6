import { isolateQueues } from '@pfs/testing';
import { containers, declaredObjects, envVars, generatedConfigMaps, isWorkload, loadKustomization } from './support/kubernetes';
import { filesUnder, readRepoFile } from './support/repo';

isolateQueues('deploy-env');

/**
 * Variables the code reads that are not deployment settings, each with the reason. Anything
 * else the apps or libs read must be documented in the README and set in k8s/base.
 */
const NOT_DEPLOYMENT_SETTINGS: Record<string, string> = {
  PATH: 'the system PATH; @pfs/devstack searches it for redis-server',
  PFS_FORCE_EMBEDDED_POSTGRES: 'dev knob of the run stack / test commands (@pfs/devstack), never set in a deployment',
  PFS_FORCE_REDIS_SERVER: 'dev knob of the run stack / test commands (@pfs/devstack), never set in a deployment',
  PFS_TEST_TEMPLATE_URL: "set by the test setup (@pfs/testing's globalSetup) for itself",
  PFS_TEST_DROP_FIRST_REPLY: 'test hook of the command consumer (a lost reply on purpose); refused when SERVICE_ENV=production',
  PFS_BASE_URL: "read only by @pfs/client's quickstart example, which a partner runs against a deployment",
  PFS_API_KEY: "read only by @pfs/client's quickstart example: the partner's sandbox key",
  MIGRATIONS_DIR: 'read only by the local migration runner (pnpm migrate); deployments run prisma migrate deploy from the migrate image',
};

/** `process.env.X`, `process.env['X']`, `env.X` (a ProcessEnv parameter) and `const { X } = process.env`. */
const ACCESS = [/\benv(?:\.|\?\.)([A-Z][A-Z0-9_]*)\b/g, /\benv\[\s*['"`]([A-Z][A-Z0-9_]*)['"`]\s*\]/g];
const DESTRUCTURE = /\{([^}]*)\}\s*=\s*process\.env\b/g;

/** Source files of apps and libs, not tests, not generated code. */
function sourceFiles(): string[] {
  return ['apps', 'libs'].flatMap((group) =>
    filesUnder(group, (path) => /\/src\//.test(path) && /\.(ts|js|mjs|cjs)$/.test(path) && !/\.(spec|test)\.[cm]?[jt]s$/.test(path) && !/\/src\/generated\//.test(path) && !/\/test\//.test(path)),
  );
}

/** Every variable read, with the files that read it. */
function variablesRead(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (name: string, file: string) => found.set(name, [...new Set([...(found.get(name) ?? []), file])]);
  for (const file of sourceFiles()) {
    const text = readRepoFile(file);
    for (const pattern of ACCESS) for (const match of text.matchAll(pattern)) add(match[1], file);
    for (const match of text.matchAll(DESTRUCTURE)) {
      for (const part of match[1].split(',')) {
        const name = part.split(/[:=]/)[0].trim();
        if (/^[A-Z][A-Z0-9_]*$/.test(name)) add(name, file);
      }
    }
  }
  return found;
}

describe('environment variables', () => {
  const read = variablesRead();
  const settings = [...read.keys()].filter((name) => !(name in NOT_DEPLOYMENT_SETTINGS)).sort();

  it('are found where the apps read them (the scan itself works)', () => {
    expect(settings).toEqual(expect.arrayContaining(['SERVICE_ENV', 'DATABASE_URL', 'REDIS_URL', 'API_KEY_PEPPER', 'PORT', 'ADMIN_PORT', 'LOG_LEVEL']));
  });

  it('every allow-listed variable is still read somewhere (no stale exceptions)', () => {
    expect(Object.keys(NOT_DEPLOYMENT_SETTINGS).filter((name) => !read.has(name))).toEqual([]);
  });

  it('every variable the apps read is documented in the README', () => {
    const readme = readRepoFile('README.md');
    const undocumented = settings.filter((name) => !readme.includes(`\`${name}\``)).map((name) => `${name} (read in ${read.get(name)?.join(', ')})`);
    expect(undocumented).toEqual([]);
  });

  it('every variable the apps read is set in k8s/base: the ConfigMap, a Secret reference, or the Deployment (ports)', () => {
    const configMap = Object.keys(generatedConfigMaps(loadKustomization('k8s/base')).get('pfs-config')?.data ?? {});
    const workloads = declaredObjects('k8s/base').filter(isWorkload);
    const inWorkloads = workloads.flatMap((workload) => containers(workload).flatMap((container) => envVars(container).map((env) => env.name)));
    const provided = new Set([...configMap, ...inWorkloads]);
    const missing = settings.filter((name) => !provided.has(name)).map((name) => `${name} (read in ${read.get(name)?.join(', ')})`);
    expect(missing).toEqual([]);
  });
});
