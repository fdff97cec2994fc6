// Added to each jest run by jest.preset.js when the test command sets $PFS_TEST_RESULTS_DIR:
// writes the run's counts there so the command can print one total over every jest project, and
// makes sure a leaked handle cannot hang the run.
const { mkdirSync, writeFileSync } = require('node:fs');
const { basename, join } = require('node:path');

class ResultsReporter {
  onRunComplete(_contexts, results) {
    const dir = process.env.PFS_TEST_RESULTS_DIR;
    if (!dir) return;
    mkdirSync(dir, { recursive: true });
    const failedToRun = results.testResults.filter((suite) => suite.testExecError || (suite.failureMessage && suite.numFailingTests === 0));
    writeFileSync(
      join(dir, `${basename(process.cwd())}-${(process.env.npm_lifecycle_event ?? 'test').replace(/:/g, '-')}-${process.pid}.json`),
      JSON.stringify({
        package: process.cwd(),
        // The package script that started this jest (`test`, `test:e2e`, …): one package may have several jest projects.
        script: process.env.npm_lifecycle_event ?? 'test',
        passed: results.numPassedTests,
        failed: results.numFailedTests,
        // A suite that cannot even load has no tests to count; it still is a failure.
        suitesFailedToRun: failedToRun.map((suite) => suite.testFilePath),
        total: results.numTotalTests,
      }),
    );
    // A test that leaks a handle (an open connection, a timer) would keep jest alive for ever
    // and hang the whole command: say so, and end this jest with the result it already has.
    // Jest runs the project's global teardown after this, so the bound leaves it room on a busy host.
    setTimeout(() => {
      process.stderr.write(`${basename(process.cwd())}: jest did not exit 30 s after its tests finished (a test leaks an open handle, or the global teardown hangs; find it with --detectOpenHandles)\n`);
      process.exit(results.success ? 0 : 1);
    }, 30000).unref();
  }
}

module.exports = ResultsReporter;
