import { isolateQueues } from '@pfs/testing';
import { parseDockerfile, stageNamed } from './support/dockerfile';
import { appNames, dictAt, field, filesUnder, isYamlFile, listAt, loadYaml, readRepoFile, rootPackage, stringAt, type Dict } from './support/repo';

isolateQueues('deploy-workflows');

const apps = appNames();
/** The README's test command (Quick start, second line), which CI must run as is. */
const TEST_COMMAND = 'npx -y pnpm@12.21.0 run test';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with: Dict;
}

function steps(job: unknown): Step[] {
  return listAt(job, 'steps').map((step) => ({
    name: stringAt(step, 'name'),
    uses: stringAt(step, 'uses'),
    run: stringAt(step, 'run'),
    with: dictAt(step, 'with'),
  }));
}

/** `on:` as a map; YAML reads a bare `on` key as the string "on" with this parser (YAML 1.2). */
const triggers = (workflow: unknown): Dict => dictAt(workflow, 'on');

describe('.github/workflows', () => {
  it('every workflow parses and has triggers and jobs', () => {
    const files = filesUnder('.github/workflows', isYamlFile);
    expect(files).toEqual(expect.arrayContaining(['.github/workflows/ci.yml', '.github/workflows/release.yml']));
    for (const file of files) {
      const workflow = loadYaml(file);
      expect({ file, on: Object.keys(triggers(workflow)).length > 0, jobs: Object.keys(dictAt(workflow, 'jobs')).length > 0 }).toEqual({ file, on: true, jobs: true });
    }
  });

  it('no workflow holds a literal credential', () => {
    for (const file of filesUnder('.github/workflows', isYamlFile)) {
      const text = readRepoFile(file);
      for (const match of text.matchAll(/^\s*(password|token|api[-_]?key|secret)\s*:\s*(.+)$/gim)) {
        expect({ file, line: match[0].trim(), fromSecrets: /^\$\{\{\s*secrets\.\w+\s*\}\}$/.test(match[2].trim()) }).toEqual({ file, line: match[0].trim(), fromSecrets: true });
      }
    }
  });
});

describe('ci.yml', () => {
  let workflow: unknown;
  let job: unknown;

  beforeAll(() => {
    workflow = loadYaml('.github/workflows/ci.yml');
    const jobs = Object.values(dictAt(workflow, 'jobs'));
    expect(jobs).toHaveLength(1);
    job = jobs[0];
  });

  it('runs on pushes and pull requests, and for the release workflow', () => {
    expect(Object.keys(triggers(workflow))).toEqual(expect.arrayContaining(['push', 'pull_request', 'workflow_call']));
  });

  it('has PostgreSQL 16 and Redis 7 service containers with health checks', () => {
    const services = dictAt(job, 'services');
    expect(stringAt(services, 'postgres.image')).toBe('postgres:16');
    expect(stringAt(services, 'redis.image')).toBe('redis:7');
    expect(stringAt(services, 'postgres.options')).toMatch(/--health-cmd "pg_isready/);
    expect(stringAt(services, 'redis.options')).toMatch(/--health-cmd "redis-cli ping"/);
    expect(listAt(services, 'postgres.ports')).toContain('5432:5432');
    expect(listAt(services, 'redis.ports')).toContain('6379:6379');
  });

  it('points the tests at those containers', () => {
    expect(stringAt(job, 'env.DATABASE_URL')).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:5432\/\w+$/);
    expect(stringAt(job, 'env.REDIS_URL')).toBe('redis://127.0.0.1:6379');
  });

  it('checks out, sets up Node 20 and the pinned pnpm, then install, generate, lint, typecheck, build, migrate, test in that order', () => {
    const list = steps(job);
    expect(list[0].uses).toMatch(/^actions\/checkout@v\d+$/);
    const node = list.find((step) => step.uses?.startsWith('actions/setup-node@'));
    expect(String(node?.with['node-version'])).toMatch(/^20(\.|$)/);
    const pnpm = rootPackage().packageManager;
    const commands = list.map((step) => step.run ?? '');
    const order = [
      `${pnpm}`,
      'pnpm install --frozen-lockfile',
      'prisma generate',
      'turbo run lint',
      'turbo run typecheck',
      'turbo run build',
      'prisma migrate deploy',
      TEST_COMMAND,
    ].map((needle) => ({ needle, at: commands.findIndex((command) => command.includes(needle)) }));
    expect(order.filter((entry) => entry.at < 0)).toEqual([]);
    const positions = order.map((entry) => entry.at);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  it("runs the README's test command", () => {
    expect(readRepoFile('README.md')).toContain(TEST_COMMAND);
    expect(readRepoFile('.ci/run')).toContain(TEST_COMMAND);
  });
});

describe('release.yml', () => {
  let workflow: unknown;

  beforeAll(() => {
    workflow = loadYaml('.github/workflows/release.yml');
  });

  it('runs on version tags only', () => {
    expect(Object.keys(triggers(workflow))).toEqual(['push']);
    expect(listAt(workflow, 'on.push.tags')).toEqual(['v*']);
    expect(field(workflow, 'on.push.branches')).toBeUndefined();
  });

  it('pushes only after CI passed', () => {
    const jobs = dictAt(workflow, 'jobs');
    const ci = Object.entries(jobs).find(([, job]) => stringAt(job, 'uses') === './.github/workflows/ci.yml');
    expect(ci).toBeDefined();
    const image = Object.values(jobs).find((job) => steps(job).some((step) => step.uses?.startsWith('docker/build-push-action@')));
    expect([field(image, 'needs')].flat()).toContain(ci?.[0]);
  });

  it('builds and pushes one image per app and one for migrate, each an existing Dockerfile target', () => {
    const job = Object.values(dictAt(workflow, 'jobs')).find((candidate) => steps(candidate).some((step) => step.uses?.startsWith('docker/build-push-action@')));
    const targets = listAt(job, 'strategy.matrix.target').map(String);
    expect([...targets].sort()).toEqual([...apps, 'migrate'].sort());
    const dockerfile = parseDockerfile(readRepoFile('docker/Dockerfile'));
    expect(targets.filter((target) => !stageNamed(dockerfile, target))).toEqual([]);

    const build = steps(job).find((step) => step.uses?.startsWith('docker/build-push-action@')) as Step;
    expect(build.with).toMatchObject({ file: 'docker/Dockerfile', target: '${{ matrix.target }}', push: true, context: '.' });
    const meta = steps(job).find((step) => step.uses?.startsWith('docker/metadata-action@')) as Step;
    expect(meta.with.images).toBe('ghcr.io/${{ github.repository }}/${{ matrix.target }}');
    const login = steps(job).find((step) => step.uses?.startsWith('docker/login-action@')) as Step;
    expect(login.with).toMatchObject({ registry: 'ghcr.io', password: '${{ secrets.GITHUB_TOKEN }}' });
    expect(stringAt(job, 'permissions.packages')).toBe('write');
  });
});
