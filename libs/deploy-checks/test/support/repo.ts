import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';

/** The repository root (this file is libs/deploy-checks/test/support/repo.ts). */
export const ROOT = join(__dirname, '../../../..');

export function repoPath(...parts: string[]): string {
  return join(ROOT, ...parts);
}

export function readRepoFile(path: string): string {
  return readFileSync(repoPath(path), 'utf8');
}

export function exists(path: string): boolean {
  return existsSync(repoPath(path));
}

/** Every app: a folder under apps/ with a package.json and a src/main.ts entry point. */
export function appNames(): string[] {
  return readdirSync(repoPath('apps'))
    .filter((name) => exists(`apps/${name}/package.json`) && exists(`apps/${name}/src/main.ts`))
    .sort();
}

export function packageName(dir: string): string {
  return (JSON.parse(readRepoFile(`${dir}/package.json`)) as { name: string }).name;
}

export function rootPackage(): { packageManager: string; devDependencies: Record<string, string> } {
  return JSON.parse(readRepoFile('package.json')) as { packageManager: string; devDependencies: Record<string, string> };
}

/** Every file under a folder (repository-relative paths), skipping dependencies and builds. */
export function filesUnder(dir: string, accept: (path: string) => boolean = () => true): string[] {
  const found: string[] = [];
  const walk = (absolute: string) => {
    for (const entry of readdirSync(absolute)) {
      if (entry === 'node_modules' || entry === 'dist' || entry === '.turbo') continue;
      const path = join(absolute, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (accept(path)) found.push(relative(ROOT, path));
    }
  };
  if (exists(dir)) walk(repoPath(dir));
  return found.sort();
}

export const isYamlFile = (path: string): boolean => /\.ya?ml$/.test(path);

/**
 * Every document of a YAML file as plain data. Fails on any syntax error or warning, naming the
 * file and line, so "the YAML parses" is checked wherever a file is read. `<<` merge keys are
 * resolved (compose files use them).
 */
export function loadYamlDocuments(path: string): unknown[] {
  const text = readRepoFile(path);
  const documents = parseAllDocuments(text, { merge: true, prettyErrors: true, uniqueKeys: true });
  const list = Array.isArray(documents) ? documents : [];
  const problems = list.flatMap((document) => [...document.errors, ...document.warnings]);
  if (problems.length > 0) {
    throw new Error(`${path} does not parse:\n${problems.map((problem) => problem.message).join('\n')}`);
  }
  return list.map((document) => document.toJS({ maxAliasCount: 1000 }) as unknown).filter((value) => value !== null && value !== undefined);
}

export function loadYaml(path: string): unknown {
  const documents = loadYamlDocuments(path);
  if (documents.length !== 1) throw new Error(`${path}: expected one YAML document, found ${documents.length}`);
  return documents[0];
}

export type Dict = Record<string, unknown>;

export function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A nested field by dotted path (`spec.template.spec`), or undefined anywhere along it. */
export function field(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const key of path.split('.')) {
    if (!isDict(current)) return undefined;
    current = current[key];
  }
  return current;
}

export function dictAt(value: unknown, path: string): Dict {
  const found = field(value, path);
  return isDict(found) ? found : {};
}

export function listAt(value: unknown, path: string): unknown[] {
  const found = field(value, path);
  return Array.isArray(found) ? found : [];
}

export function stringAt(value: unknown, path: string): string | undefined {
  const found = field(value, path);
  return typeof found === 'string' ? found : typeof found === 'number' ? String(found) : undefined;
}

/** The app's HTTP port and the variable that sets it, as `run stack` and the README table use them. */
export interface AppPort {
  variable: 'PORT' | 'ADMIN_PORT';
  port: number;
}

/**
 * Each app's port from its own entry point: the gateway's `PORT` (3000, gateway.config.ts), a
 * service's admin port from `runService(Module, <port>)` in its main.ts.
 */
export function appPort(app: string): AppPort {
  if (app === 'gateway') {
    const config = readRepoFile('apps/gateway/src/gateway.config.ts');
    const match = /env\.PORT,\s*(\d+)/.exec(config);
    if (!match) throw new Error('apps/gateway/src/gateway.config.ts: cannot find the default PORT');
    return { variable: 'PORT', port: Number(match[1]) };
  }
  const main = readRepoFile(`apps/${app}/src/main.ts`);
  const match = /runService\(\s*\w+\s*,\s*(\d+)\s*\)/.exec(main);
  if (!match) throw new Error(`apps/${app}/src/main.ts: cannot find its admin port (runService(Module, port))`);
  return { variable: 'ADMIN_PORT', port: Number(match[1]) };
}

/**
 * The port of the app's `/metrics`, `/healthz` and `/readyz` for the cluster: a service's only
 * port, the gateway's `ADMIN_PORT` (3100, gateway.config.ts), which is never its public one.
 */
export function adminPort(app: string): number {
  if (app !== 'gateway') return appPort(app).port;
  const config = readRepoFile('apps/gateway/src/gateway.config.ts');
  const match = /env\.ADMIN_PORT,\s*(\d+)/.exec(config);
  if (!match) throw new Error('apps/gateway/src/gateway.config.ts: cannot find the default ADMIN_PORT');
  return Number(match[1]);
}

/** Names that carry credentials: they must come from a secret, never from a literal. */
export const SECRET_NAME = /(_URL$|PEPPER|SECRET|PASSWORD|TOKEN|_KEY$)/;
