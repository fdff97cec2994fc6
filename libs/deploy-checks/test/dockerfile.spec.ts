import { isolateQueues } from '@pfs/testing';
import {
  baseImage,
  chainInstructions,
  effective,
  effectiveEnv,
  parseDockerfile,
  stageNamed,
  stagesNeeded,
  type Dockerfile,
} from './support/dockerfile';
import { appNames, appPort, packageName, readRepoFile, rootPackage } from './support/repo';

isolateQueues('deploy-dockerfile');

const DOCKERFILE = 'docker/Dockerfile';
/** What every app's `node` runs with, here and in the local stack. */
const NODE_FLAGS = ['--max-semi-space-size=4', '--v8-pool-size=1', '--liftoff-only', '--heap-growing-percent=25', '--gc-memory-reducer-start-delay-ms=2000'];
const apps = appNames();
let dockerfile: Dockerfile;

beforeAll(() => {
  dockerfile = parseDockerfile(readRepoFile(DOCKERFILE));
});

const runs = (target: string): string[] =>
  stagesNeeded(dockerfile, target).flatMap((stage) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args));

describe('docker/Dockerfile', () => {
  it('parses, and every COPY --from names an earlier stage', () => {
    expect(dockerfile.stages.length).toBeGreaterThan(apps.length);
    dockerfile.stages.forEach((stage, index) => {
      for (const instruction of stage.instructions) {
        for (const from of instruction.flags.from ?? []) {
          const source = stageNamed(dockerfile, from);
          expect({ line: instruction.line, from, earlier: source !== undefined && dockerfile.stages.indexOf(source) < index }).toEqual({
            line: instruction.line,
            from,
            earlier: true,
          });
        }
      }
    });
  });

  it('has a target for every app under apps/', () => {
    const missing = apps.filter((app) => !stageNamed(dockerfile, app));
    expect(missing).toEqual([]);
  });

  describe.each(apps)('the %s image', (app) => {
    it(`runs node apps/${app}/dist/main.js, copied in from the build`, () => {
      expect(effective(dockerfile, app, 'CMD')?.exec).toEqual(['node', ...NODE_FLAGS, `apps/${app}/dist/main.js`]);
      const copies = chainInstructions(dockerfile, app).filter((i) => i.keyword === 'COPY' && i.flags.from !== undefined);
      expect(copies.map((copy) => copy.args)).toContainEqual(`/out/${app} apps/${app}`);
    });

    it('is small: node 20 slim or alpine, no build tools or package installs in its own stages', () => {
      expect(baseImage(dockerfile, app)).toMatch(/^node:20(\.\d+)*-(slim|alpine|bookworm-slim|bullseye-slim)/);
      const ownRuns = chainInstructions(dockerfile, app).filter((i) => i.keyword === 'RUN');
      expect(ownRuns.map((run) => `line ${run.line}: ${run.args}`)).toEqual([]);
    });

    it('runs as a non-root user with NODE_ENV=production', () => {
      const user = effective(dockerfile, app, 'USER');
      expect(user?.args).toBeDefined();
      expect(user?.args.split(':')[0]).not.toMatch(/^(root|0)$/);
      expect(effectiveEnv(dockerfile, app).NODE_ENV).toBe('production');
    });

    it('runs Node with the memory settings of the local stack (young generation, V8 threads, WebAssembly tier, malloc arenas)', () => {
      expect(effectiveEnv(dockerfile, app).MALLOC_ARENA_MAX).toBe('2');
      const devstack = readRepoFile('libs/devstack/src/app-processes.ts');
      expect(devstack).toContain(`APP_NODE_FLAGS: readonly string[] = [${NODE_FLAGS.map((flag) => `'${flag}'`).join(', ')}]`);
      expect(devstack).toContain(`APP_MALLOC_ARENA_MAX = '2'`);
    });

    it('ships only production dependencies (pnpm deploy --prod of the built workspace)', () => {
      const build = runs(app);
      expect(build.some((run) => /pnpm --filter "?\.\/apps\/\$app"? --prod deploy "?\/out\/\$app"?/.test(run))).toBe(true);
      expect(build.some((run) => run.includes('for dir in apps/*/'))).toBe(true);
    });

    it('exposes the port its health endpoints answer on', () => {
      const exposed = chainInstructions(dockerfile, app).filter((i) => i.keyword === 'EXPOSE').map((i) => i.args);
      expect(exposed).toEqual([String(appPort(app).port)]);
    });
  });

  it('builds from the pruned workspace: turbo prune of every app, frozen install, prisma generate, turbo build', () => {
    const all = runs(apps[0]);
    const prune = all.find((run) => run.startsWith('turbo prune'));
    expect(prune).toBeDefined();
    for (const app of apps) expect(prune?.split(/\s+/)).toContain(packageName(`apps/${app}`));
    expect(prune).toContain('--docker');
    const order = ['pnpm install --frozen-lockfile', 'prisma generate', 'turbo run build'].map((step) => all.findIndex((run) => run.includes(step)));
    expect(order.every((index) => index >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('pins pnpm, turbo and prisma to the versions package.json pins', () => {
    const root = rootPackage();
    const pnpm = root.packageManager.replace(/^pnpm@/, '');
    const text = dockerfile.stages.flatMap((stage) => stage.instructions.map((i) => i.args)).join('\n');
    expect(text).toContain(`pnpm@${pnpm}`);
    expect(text).toContain(`turbo@${root.devDependencies.turbo}`);
    expect(text).toContain(`"prisma":"${root.devDependencies.prisma}"`);
    expect(text).toContain(`"pg":"${root.devDependencies.pg}"`);
    expect(text).not.toMatch(/@latest\b/);
  });

  describe('the migrate image', () => {
    it('runs prisma migrate deploy with the schema, migrations and prisma.config.ts', () => {
      expect(effective(dockerfile, 'migrate', 'CMD')?.exec).toEqual(['node_modules/.bin/prisma', 'migrate', 'deploy']);
      const copies = chainInstructions(dockerfile, 'migrate')
        .filter((i) => i.keyword === 'COPY')
        .map((i) => i.args);
      expect(copies).toEqual(expect.arrayContaining(['prisma ./prisma', 'prisma.config.ts docker/wait-for-migrations.mjs ./', '/migrate/node_modules ./node_modules']));
      expect(effective(dockerfile, 'migrate', 'WORKDIR')?.args).toBe('/app');
    });

    it('has the schema engine in the image (fetched at build time) and runs as non-root', () => {
      expect(runs('migrate').some((run) => run.includes('prisma version'))).toBe(true);
      expect(effective(dockerfile, 'migrate', 'USER')?.args).not.toMatch(/^(root|0)(:|$)/);
      expect(effectiveEnv(dockerfile, 'migrate').NODE_ENV).toBe('production');
    });
  });
});

describe('.dockerignore', () => {
  it('keeps local dependencies, builds, generated code, git and env files out of the build context', () => {
    const patterns = readRepoFile('.dockerignore')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#'));
    expect(patterns).toEqual(expect.arrayContaining(['**/node_modules', '**/dist', '.git', '.env', 'libs/persistence/src/generated']));
  });
});
