import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { commandDefinition, commandNames, type CommandService } from '@pfs/contracts';

/**
 * Architecture fitness tests: the rules of architecture.md that a reviewer would otherwise
 * have to remember. They read the source tree as text.
 */
const ROOT = join(__dirname, '../../..');

const SERVICE_SCHEMAS: Record<string, string> = {
  'organization-service': 'organization',
  'ledger-service': 'ledger',
  'quote-service': 'quote',
  'beneficiary-service': 'beneficiary',
  'webhook-delivery-service': 'webhook',
  'webhook-delivery-worker': 'delivery',
};
const APPS = [...Object.keys(SERVICE_SCHEMAS), 'gateway'];
const SERVICE_QUEUES: Record<string, CommandService> = {
  'organization-service': 'organization',
  'ledger-service': 'ledger',
  'quote-service': 'quote',
  'beneficiary-service': 'beneficiary',
  'webhook-delivery-service': 'webhook-delivery',
  'webhook-delivery-worker': 'webhook-delivery-worker',
};

/**
 * Where a reader looks for a command's use case: `organizations.create` → `create-organization`,
 * `accounts.list` → `list-accounts`, `funding-methods.provision` → `provision-funding-methods`,
 * `deliveries.resend` → `resend-delivery` (the resource as named, or singular).
 */
function useCaseFolders(command: string): string[] {
  const [resource, verb] = command.split('.');
  const singular = resource.endsWith('ies') ? `${resource.slice(0, -3)}y` : resource.replace(/s$/, '');
  return [`${verb}-${resource}`, `${verb}-${singular}`];
}

/** The `'command': UseCase` lines of a service's command table and the file each class is imported from. */
function commandTable(service: string): { file: string; entries: Map<string, string | null> } {
  const file = join(ROOT, 'apps', service, 'src/adapters/messaging', `${SERVICE_QUEUES[service]}.command-handlers.ts`);
  const text = readFileSync(file, 'utf8');
  const table = /commandHandlers\(\s*'[\w-]+',\s*\{([\s\S]*?)\}\s*\)/.exec(text)?.[1] ?? '';
  const importsOf = new Map<string, string>();
  for (const match of text.matchAll(/import \{([^}]*)\} from '([^']+)'/g)) {
    for (const name of match[1].split(',').map((part) => part.trim())) importsOf.set(name, match[2]);
  }
  const entries = new Map<string, string | null>();
  for (const match of table.matchAll(/'([\w.-]+)':\s*(\w+)/g)) {
    const from = importsOf.get(match[2]);
    entries.set(match[1], from?.startsWith('.') ? relative(join(ROOT, 'apps', service, 'src'), resolve(dirname(file), from)) : null);
  }
  return { file, entries };
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    // Installed packages and build output are not the project's source (node_modules would
    // also lead through pnpm's links into every dependency).
    if (statSync(path).isDirectory()) return ['generated', 'node_modules', 'dist'].includes(entry) ? [] : sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(['"]([^'"]+)['"]\)/g)].map(
    (match) => match[1] ?? match[2],
  );
}

/** model name → PostgreSQL schema, read from prisma/schema.prisma. */
function modelSchemas(): Map<string, string> {
  const schema = readFileSync(join(ROOT, 'prisma/schema.prisma'), 'utf8');
  const result = new Map<string, string>();
  for (const match of schema.matchAll(/model\s+(\w+)\s*\{([\s\S]*?)\n\}/g)) {
    const owner = /@@schema\("(\w+)"\)/.exec(match[2]);
    if (owner) result.set(match[1], owner[1]);
  }
  return result;
}

describe('architecture', () => {
  it('every app exists and every service has the same hexagonal shape', () => {
    for (const app of APPS) expect(existsSync(join(ROOT, 'apps', app, 'src/main.ts'))).toBe(true);
    for (const service of Object.keys(SERVICE_SCHEMAS)) {
      for (const folder of ['domain', 'application/ports', 'application/use-cases', 'adapters/persistence', 'adapters/messaging']) {
        expect([service, existsSync(join(ROOT, 'apps', service, 'src', folder))]).toEqual([service, true]);
      }
    }
  });

  it('domain code imports no framework, ORM or queue library', () => {
    // Pure computation libraries are fine: decimal arithmetic, and hashes (keccak-256 for EIP-55 addresses).
    const allowed = (specifier: string) =>
      specifier.startsWith('.') || specifier === '@pfs/contracts' || specifier === '@pfs/codecs' || specifier === 'big.js' || specifier.startsWith('@noble/hashes/') || specifier.startsWith('node:');
    // A domain spec may also generate its cases (property-based tests).
    const allowedIn = (file: string, specifier: string) => allowed(specifier) || (file.endsWith('.spec.ts') && specifier === 'fast-check');
    const offenders = APPS.flatMap((app) =>
      sourceFiles(join(ROOT, 'apps', app, 'src/domain')).flatMap((file) =>
        imports(file)
          .filter((specifier) => !allowedIn(file, specifier))
          .map((specifier) => `${relative(ROOT, file)} imports ${specifier}`),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('application code (use cases and ports) never touches Prisma, BullMQ or HTTP', () => {
    const forbidden = /^(@prisma\/|@pfs\/persistence|@pfs\/messaging|bullmq|ioredis|fastify|@nestjs\/platform)/;
    const offenders = APPS.flatMap((app) =>
      sourceFiles(join(ROOT, 'apps', app, 'src/application')).flatMap((file) =>
        imports(file)
          .filter((specifier) => forbidden.test(specifier))
          .map((specifier) => `${relative(ROOT, file)} imports ${specifier}`),
      ),
    );
    expect(offenders).toEqual([]);
  });

  it('specs under apps/*/src/ (domain and use-case levels) import no I/O: only in-memory adapters', () => {
    // Type-only imports emit no code, so they reach no database or queue.
    const forbidden = /^(@pfs\/persistence|@pfs\/messaging|@pfs\/testing|pg|bullmq|ioredis|@prisma\/.*)$/;
    const offenders = APPS.flatMap((app) => {
      const support = join(ROOT, 'apps', app, 'test/support');
      return sourceFiles(join(ROOT, 'apps', app, 'src'))
        .filter((file) => file.endsWith('.spec.ts'))
        .flatMap((file) =>
          [...readFileSync(file, 'utf8').matchAll(/(import|export)(\s+type\b)?[^'"]*?from\s+['"]([^'"]+)['"]|import\(['"]([^'"]+)['"]\)/g)]
            .filter((match) => !match[2])
            .map((match) => match[3] ?? match[4])
            .filter((specifier) => {
              if (forbidden.test(specifier)) return true;
              if (!specifier.startsWith('.')) return false;
              const target = resolve(dirname(file), specifier);
              return target.startsWith(`${support}/`) && !target.startsWith(`${support}/in-memory/`);
            })
            .map((specifier) => `${relative(ROOT, file)} imports ${specifier}`),
        );
    });
    expect(offenders).toEqual([]);
  });

  it('no app imports another app; the gateway reaches services only through the contracts', () => {
    const offenders = APPS.flatMap((app) =>
      sourceFiles(join(ROOT, 'apps', app)).flatMap((file) =>
        imports(file)
          .filter((specifier) => APPS.some((other) => other !== app && (specifier.includes(`/${other}/`) || specifier === `@pfs/${other}`)))
          .map((specifier) => `${relative(ROOT, file)} imports ${specifier}`),
      ),
    );
    const gatewayDb = sourceFiles(join(ROOT, 'apps/gateway/src')).filter((file) =>
      imports(file).some((specifier) => specifier === '@pfs/persistence' || specifier.startsWith('@prisma/')),
    );
    expect(offenders).toEqual([]);
    expect(gatewayDb).toEqual([]);
  });

  it("each service's code touches only the tables of its own schema", () => {
    const models = modelSchemas();
    expect(models.size).toBeGreaterThan(5);
    const accessorToModel = new Map([...models.keys()].map((model) => [model[0].toLowerCase() + model.slice(1), model]));
    const schemas = new Set(models.values());
    const offenders: string[] = [];
    for (const [service, own] of Object.entries(SERVICE_SCHEMAS)) {
      for (const file of sourceFiles(join(ROOT, 'apps', service, 'src'))) {
        const text = readFileSync(file, 'utf8');
        for (const match of text.matchAll(/\.(\w+)\.(findUnique|findUniqueOrThrow|findFirst|findFirstOrThrow|findMany|create|createMany|createManyAndReturn|update|updateMany|upsert|delete|deleteMany|count|aggregate|groupBy)\(/g)) {
          const model = accessorToModel.get(match[1]);
          if (model && models.get(model) !== own) offenders.push(`${relative(ROOT, file)} uses ${model} (${models.get(model)})`);
        }
        for (const match of text.matchAll(/"(\w+)"\s*\.\s*"\w+"/g)) {
          if (schemas.has(match[1]) && match[1] !== own) offenders.push(`${relative(ROOT, file)} names table in schema ${match[1]}`);
        }
        const serviceIdentity = /ServiceRuntimeModule\.forService\(\{[^}]*schema:\s*'(\w+)'/.exec(text);
        if (serviceIdentity && serviceIdentity[1] !== own) offenders.push(`${relative(ROOT, file)} binds schema ${serviceIdentity[1]}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('every model lives in a service schema and every service schema is declared', () => {
    const models = modelSchemas();
    const declared = /schemas\s*=\s*\[([^\]]*)\]/.exec(readFileSync(join(ROOT, 'prisma/schema.prisma'), 'utf8'))?.[1] ?? '';
    for (const schema of Object.values(SERVICE_SCHEMAS)) expect(declared).toContain(`"${schema}"`);
    for (const schema of models.values()) expect(Object.values(SERVICE_SCHEMAS)).toContain(schema);
  });

  it('every command leads to its use case: one table line, one folder named after the command', () => {
    const problems: string[] = [];
    for (const [service, queue] of Object.entries(SERVICE_QUEUES)) {
      const { entries } = commandTable(service);
      expect([service, [...entries.keys()].sort()]).toEqual([service, commandNames(queue).sort()]);
      for (const [command, path] of entries) {
        if (command === 'system.ping') continue; // the shared PingUseCase of @pfs/messaging
        const folder = path?.match(/^application\/use-cases\/([\w-]+)\/([\w-]+)\.use-case$/);
        if (!folder || folder[1] !== folder[2] || !useCaseFolders(command).includes(folder[1])) {
          problems.push(`${service}: ${command} is answered by ${path ?? 'a class from outside the service'}, not use-cases/${useCaseFolders(command)[0]}/`);
          continue;
        }
        const dir = join(ROOT, 'apps', service, 'src/application/use-cases', folder[1]);
        const kind = commandDefinition(queue, command)?.kind === 'mutation' ? 'command' : 'query';
        for (const expected of [`${folder[1]}.${kind}.ts`, `${folder[1]}.use-case.spec.ts`]) {
          if (!existsSync(join(dir, expected))) problems.push(`${service}: use-cases/${folder[1]}/ lacks ${expected}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('one wiring style: <service>.module.ts binds the runtime, the providers and the command table', () => {
    for (const [service, queue] of Object.entries(SERVICE_QUEUES)) {
      const modules = readdirSync(join(ROOT, 'apps', service, 'src')).filter((file) => file.endsWith('.module.ts'));
      expect([service, modules.length]).toEqual([service, 1]);
      const text = readFileSync(join(ROOT, 'apps', service, 'src', modules[0]), 'utf8');
      expect([service, text.includes(`commandConsumerProvider('${queue}', `) && text.includes('_COMMAND_HANDLERS')]).toEqual([service, true]);
    }
  });
});
