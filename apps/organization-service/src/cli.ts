import { runOperatorCli } from './adapters/cli/operator-cli';

// Operator bootstrap (api-decisions §3): `pnpm cli org:create --name <name> [--approved] [--json]`.
runOperatorCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`error: ${(error as Error).message}\n`);
    process.exitCode = 1;
  },
);
