// The test command, `pnpm run test`: install, generate, build the libraries this command uses,
// find or start PostgreSQL and Redis, create a fresh migrated database for this run, then ONE
// `turbo run` of build, lint, typecheck and every jest project, and end with the time of each
// part and one line: `N passed, N failed`.
// N failed counts failed tests, test files that could not run, and any other failed task (a
// build, lint or typecheck task, a jest project that crashed before reporting), one each.
// The exit code is 0 only when nothing failed. Works unattended (CI=true, no stdin).
// `pnpm run test --affected`: only the tasks of packages changed against main (and their
// dependents), as turbo's --affected decides (TURBO_SCM_BASE / TURBO_SCM_HEAD move the range).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtLibraries, bold, cyan, dim, Fatal, green, infrastructure, installAndGenerate, red, root, run, seconds, step, stopChildren, turboEnvironment, withDatabase } from './lib/workspace.mjs';

const began = Date.now();

// Tasks turbo runs at once. The gateway's two end-to-end projects hold two of them for most of
// the run (mostly waiting on their apps); the rest share the two cores. Measured on 2 cores:
// see the README's Testing section. PFS_TEST_CONCURRENCY overrides it (for measuring).
const CONCURRENCY = Number(process.env.PFS_TEST_CONCURRENCY ?? 4);
// Every task of the one turbo run. `//#apps-built` (turbo.json) holds lint, typecheck and the
// unit projects until every app is built, so the isolated end-to-end project, which needs the
// builds, is first in line for a slot and overlaps with everything else.
const TASKS = ['build', 'lint', 'typecheck', 'test', 'test:isolated', 'test:e2e'];
const TEST_SCRIPTS = new Set(['test', 'test:isolated', 'test:e2e']);
const cleanups = [];
let finished = false;

async function cleanup() {
  for (const task of cleanups.splice(0).reverse()) {
    try {
      await task();
    } catch (error) {
      process.stderr.write(`cleanup failed: ${error.message}\n`);
    }
  }
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (finished) process.exit(130);
    finished = true;
    process.stdout.write(`\n${signal} received: stopping\n`);
    // turbo first (it stops its tasks), then the database and the services this command started.
    void stopChildren(signal)
      .then(cleanup)
      .then(() => process.exit(130));
  });
}

function parseArgs(argv) {
  const options = { affected: false };
  for (const arg of argv) {
    if (arg === '--affected') options.affected = true;
    else if (arg !== '--') throw new Fatal(`unknown argument ${arg} (usage: pnpm run test [--affected])`);
  }
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  process.stdout.write(`${bold('Partner Finance Service')} ${dim('— test command')}\n`);
  const times = await installAndGenerate();
  const turboEnv = turboEnvironment();
  const turbo = join(root, 'node_modules/.bin/turbo');
  // This command itself needs @pfs/devstack (PostgreSQL, Redis) and @pfs/persistence (migrations)
  // before the run; the run builds the rest (and finds these in turbo's cache).
  const libraries = await step(
    'build the libraries this command uses (turbo run build --filter=@pfs/devstack --filter=@pfs/persistence)',
    turbo,
    ['run', 'build', '--filter=@pfs/devstack', '--filter=@pfs/persistence', '--output-logs=errors-only'],
    { env: turboEnv },
  );
  times.libraries = libraries.ms;
  const { devstack, persistence } = builtLibraries();

  const infra = await infrastructure(devstack, { database: 'pfs_test' });
  cleanups.push(() => infra.stop());

  // A database of its own for every run: fresh, and never shared with a stack or another run.
  const databaseUrl = withDatabase(infra.databaseUrl, `pfs_test_${randomBytes(4).toString('hex')}`);
  const migrateStarted = Date.now();
  process.stdout.write(`${cyan('▸')} fresh test database ${dim(new URL(databaseUrl).pathname.slice(1))} `);
  await persistence.ensureDatabase(databaseUrl);
  cleanups.push(() => dropDatabase(databaseUrl));
  const migrations = await persistence.applyMigrations(databaseUrl, join(root, 'prisma/migrations'));
  process.stdout.write(`${dim(`${migrations.applied.length} migration(s) applied (${seconds(migrateStarted)})`)}\n`);

  const resultsDir = mkdtempSync(join(tmpdir(), 'pfs-test-results-'));
  cleanups.push(() => rmSync(resultsDir, { recursive: true, force: true }));
  const env = {
    ...turboEnv,
    DATABASE_URL: databaseUrl,
    REDIS_URL: infra.redisUrl,
    CI: process.env.CI ?? 'true',
    PFS_TEST_RESULTS_DIR: resultsDir,
  };

  const args = ['run', ...TASKS, `--concurrency=${CONCURRENCY}`, '--continue', '--output-logs=new-only', ...(options.affected ? ['--affected'] : [])];
  process.stdout.write(`${cyan('▸')} build, lint, typecheck and every jest project ${dim(`(turbo ${args.join(' ')})`)}\n`);
  const runStarted = Date.now();
  const result = await turboRun(turbo, args, env);
  times.run = Date.now() - runStarted;

  const failedTasks = result.tasks.filter((task) => task.failed);
  const counts = countResults(resultsDir, failedTasks.filter((task) => TEST_SCRIPTS.has(task.script)));
  const failedChecks = failedTasks.filter((task) => !TEST_SCRIPTS.has(task.script));
  let failed = counts.failed + failedChecks.length;
  if (result.code !== 0 && failed === 0) {
    // turbo failed without any task or test to blame (it could not start, say): still a failure.
    counts.notes.push(`turbo run exited ${result.code}`);
    failed = 1;
  }

  await cleanup();
  finished = true;
  process.stdout.write('\n');
  printTimes(times, result.tasks);
  for (const task of failedChecks) process.stdout.write(`${red('✖')} ${task.taskId} failed\n`);
  for (const line of counts.notes) process.stdout.write(`${red('✖')} ${line}\n`);
  process.stdout.write(dim(`test command finished in ${seconds(began)}\n`));
  process.stdout.write(failed ? `${red('✖ failures above')}\n` : `${green('✔ all green')}\n`);
  // The closing line stays plain (no colour): tools parse it.
  process.stdout.write(`${counts.passed} passed, ${failed} failed\n`);
  process.exit(failed ? 1 : 0);
}

const secondsOf = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The time of each part: the steps before the run, then from the run's summary the span of its
 * builds and of lint + typecheck (first start to last end, tasks side by side) and each jest
 * project's own time.
 */
function printTimes(times, tasks) {
  const rows = [
    ['install', secondsOf(times.install)],
    ['generate', secondsOf(times.generate)],
    ['build: libraries this command uses', secondsOf(times.libraries)],
  ];
  const span = (group) => {
    const ran = group.filter((task) => task.startTime);
    if (!ran.length) return 'not run';
    const ms = Math.max(...ran.map((task) => task.endTime)) - Math.min(...ran.map((task) => task.startTime));
    const cached = ran.filter((task) => task.cached).length;
    const busy = ran.filter((task) => !task.cached).reduce((sum, task) => sum + task.endTime - task.startTime, 0);
    return `${secondsOf(ms)}  ${dim(`(${ran.length} tasks, ${cached} cached; ${secondsOf(busy)} of task time)`)}`;
  };
  rows.push(['build: the rest (in the run)', span(tasks.filter((task) => task.script === 'build'))]);
  rows.push(['lint + typecheck', span(tasks.filter((task) => task.script === 'lint' || task.script === 'typecheck'))]);
  const offset = Math.min(...tasks.filter((task) => task.startTime).map((task) => task.startTime));
  for (const task of tasks.filter((candidate) => TEST_SCRIPTS.has(candidate.script) && candidate.startTime).sort((a, b) => b.endTime - b.startTime - (a.endTime - a.startTime))) {
    const label = `jest ${task.package.replace('@pfs/', '')}${task.script === 'test' ? '' : ` ${task.script.replace('test:', '')}`}`;
    rows.push([label, `${secondsOf(task.endTime - task.startTime)}  ${dim(`(started at +${secondsOf(task.startTime - offset)})`)}`]);
  }
  rows.push([`turbo run (concurrency ${CONCURRENCY})`, secondsOf(times.run)]);
  const width = Math.max(...rows.map(([label]) => label.length));
  process.stdout.write(`${bold('Times')}\n`);
  for (const [label, value] of rows) process.stdout.write(`  ${label.padEnd(width)}  ${value}\n`);
}

/** Runs turbo with its output on the terminal; returns its exit code and what its summary says of each task. */
async function turboRun(turbo, args, env) {
  const runsDir = join(root, '.turbo/runs');
  const before = new Set(existsSync(runsDir) ? readdirSync(runsDir) : []);
  const result = await run(turbo, [...args, '--summarize'], { env, group: true });
  const summaryFile = (existsSync(runsDir) ? readdirSync(runsDir) : []).find((name) => !before.has(name));
  let tasks = [];
  if (summaryFile) {
    const summary = JSON.parse(readFileSync(join(runsDir, summaryFile), 'utf8'));
    tasks = summary.tasks
      .filter((task) => task.command !== '<NONEXISTENT>')
      .map((task) => ({
        taskId: task.taskId,
        package: task.package,
        script: task.task,
        cached: task.cache?.status === 'HIT',
        failed: Boolean(task.execution && task.execution.exitCode !== 0),
        startTime: task.execution?.startTime,
        endTime: task.execution?.endTime,
      }));
    rmSync(join(runsDir, summaryFile), { force: true });
  }
  return { code: result.code, tasks };
}

/** Sums what each jest project reported; a failed jest task that reported nothing is one failure. */
function countResults(resultsDir, failedTestTasks) {
  let passed = 0;
  let failed = 0;
  const notes = [];
  const reported = new Set();
  for (const name of readdirSync(resultsDir)) {
    const result = JSON.parse(readFileSync(join(resultsDir, name), 'utf8'));
    passed += result.passed;
    failed += result.failed + result.suitesFailedToRun.length;
    reported.add(`${result.package}#${result.script}`);
    for (const file of result.suitesFailedToRun) notes.push(`${file.replace(`${root}/`, '')} could not run`);
  }
  for (const task of failedTestTasks) {
    const dir = packageDir(task.package);
    if (!dir || !reported.has(`${dir}#${task.script}`)) {
      failed += 1;
      notes.push(`${task.taskId} failed before its tests reported (see its output above)`);
    }
  }
  return { passed, failed, notes };
}

function packageDir(name) {
  for (const group of ['apps', 'libs']) {
    for (const entry of readdirSync(join(root, group))) {
      const manifest = join(root, group, entry, 'package.json');
      if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === name) return join(root, group, entry);
    }
  }
  return undefined;
}

async function dropDatabase(databaseUrl) {
  const { Client } = (await import('node:module')).createRequire(join(root, 'libs/persistence/package.json'))('pg');
  const name = new URL(databaseUrl).pathname.slice(1);
  const client = new Client({ connectionString: withDatabase(databaseUrl, 'postgres') });
  await client.connect();
  try {
    // Every database the run's jest processes cloned from it (`<name>_<hex>`, and the isolated
    // project's per-file `<name>_<hex>_<hex>`) goes too, even when a jest process ended before
    // its own global teardown could drop them.
    const { rows } = await client.query(`SELECT datname FROM pg_database WHERE starts_with(datname, $1)`, [`${name}_`]);
    const clones = rows.map((row) => row.datname).filter((clone) => /^(_[0-9a-f]+)+$/.test(clone.slice(name.length)));
    for (const clone of [...clones, name]) await client.query(`DROP DATABASE IF EXISTS "${clone}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

main().catch(async (error) => {
  const message = error instanceof Fatal ? error.message : (error?.stack ?? String(error));
  process.stderr.write(`\n${red('✖')} ${message}\n`);
  await cleanup();
  process.stdout.write('0 passed, 1 failed\n');
  process.exit(1);
});
