// The test command, `pnpm run test`: install, generate, build, find or start PostgreSQL and
// Redis, create a fresh migrated database for this run, lint and typecheck every package, run
// every package's jest (two at a time), and end with one line: `N passed, N failed`.
// N failed counts failed tests, test files that could not run, and any other failed task (a
// lint or typecheck task, a package whose jest crashed before reporting), one each.
// The exit code is 0 only when nothing failed. Works unattended (CI=true, no stdin).
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtLibraries, bold, cyan, dim, Fatal, green, infrastructure, prepareWorkspace, red, root, run, seconds, signalChildren, withDatabase } from './lib/workspace.mjs';

const began = Date.now();
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
    signalChildren(signal);
    void cleanup().then(() => process.exit(130));
  });
}

async function main() {
  process.stdout.write(`${bold('Partner Finance Service')} ${dim('— test command')}\n`);
  const turboEnv = await prepareWorkspace();
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
  const turbo = join(root, 'node_modules/.bin/turbo');

  process.stdout.write(`${cyan('▸')} lint and typecheck ${dim('(turbo run lint typecheck)')}\n`);
  const checks = await turboRun(turbo, ['run', 'lint', 'typecheck', '--continue', '--output-logs=errors-only'], [], env);

  process.stdout.write(`${cyan('▸')} tests ${dim('(turbo run test test:isolated test:e2e --concurrency=3)')}\n`);
  const reporter = join(root, 'scripts/lib/jest-results-reporter.cjs');
  const tests = await turboRun(
    turbo,
    ['run', 'test', 'test:isolated', 'test:e2e', '--concurrency=3', '--continue', '--output-logs=new-only'],
    ['--reporters=default', `--reporters=${reporter}`],
    env,
  );

  const counts = countResults(resultsDir, tests.failedTasks);
  const failedChecks = checks.failedTasks.length + (checks.code !== 0 && !checks.failedTasks.length ? 1 : 0);
  let failed = counts.failed + failedChecks;
  if (tests.code !== 0 && failed === 0) {
    // turbo failed without any task or test to blame (it could not start, say): still a failure.
    counts.notes.push(`turbo run test exited ${tests.code}`);
    failed = 1;
  }

  await cleanup();
  finished = true;
  process.stdout.write('\n');
  for (const task of checks.failedTasks) process.stdout.write(`${red('✖')} ${task} failed\n`);
  for (const line of counts.notes) process.stdout.write(`${red('✖')} ${line}\n`);
  process.stdout.write(dim(`test command finished in ${seconds(began)}\n`));
  process.stdout.write(failed ? `${red('✖ failures above')}\n` : `${green('✔ all green')}\n`);
  // The closing line stays plain (no colour): tools parse it.
  process.stdout.write(`${counts.passed} passed, ${failed} failed\n`);
  process.exit(failed ? 1 : 0);
}

/** Runs turbo with its output on the terminal; returns its exit code and the ids of failed tasks. */
async function turboRun(turbo, args, passThrough, env) {
  const runsDir = join(root, '.turbo/runs');
  const before = new Set(existsSync(runsDir) ? readdirSync(runsDir) : []);
  const result = await run(turbo, [...args, '--summarize', ...(passThrough.length ? ['--', ...passThrough] : [])], { env });
  const summaryFile = (existsSync(runsDir) ? readdirSync(runsDir) : []).find((name) => !before.has(name));
  let failedTasks = [];
  if (summaryFile) {
    const summary = JSON.parse(readFileSync(join(runsDir, summaryFile), 'utf8'));
    failedTasks = summary.tasks.filter((task) => task.execution && task.execution.exitCode !== 0).map((task) => task.taskId);
    rmSync(join(runsDir, summaryFile), { force: true });
  }
  return { code: result.code, failedTasks };
}

/** Sums what each package's jest reported; a failed test task that reported nothing is one failure. */
function countResults(resultsDir, failedTestTasks) {
  let passed = 0;
  let failed = 0;
  const notes = [];
  const reported = new Set();
  for (const name of readdirSync(resultsDir)) {
    const result = JSON.parse(readFileSync(join(resultsDir, name), 'utf8'));
    passed += result.passed;
    failed += result.failed + result.suitesFailedToRun.length;
    reported.add(result.package);
    for (const file of result.suitesFailedToRun) notes.push(`${file.replace(`${root}/`, '')} could not run`);
  }
  for (const taskId of failedTestTasks) {
    const pkg = taskId.split('#')[0];
    const dir = packageDir(pkg);
    if (!dir || !reported.has(dir)) {
      failed += 1;
      notes.push(`${taskId} failed before its tests reported (see its output above)`);
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
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
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
