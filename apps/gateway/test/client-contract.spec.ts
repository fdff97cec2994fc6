import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isolateQueues, testRedisUrl } from '@pfs/testing';
import { startTestGateway, type TestGateway } from './support/test-gateway';

const queuePrefix = isolateQueues('gw-client-contract');

const CLIENT = resolve(__dirname, '../../../libs/client');
const COMMITTED_DOCUMENT = join(CLIENT, 'openapi.json');
const COMMITTED_TYPES = join(CLIENT, 'src/generated/schema.ts');
/** `PFS_UPDATE_CLIENT=1`: this test rewrites the client's document and types instead of comparing. */
const UPDATE = process.env.PFS_UPDATE_CLIENT === '1';

/*
 * @pfs/client never drifts from the server: its committed OpenAPI document is the one a sandbox
 * gateway with default settings serves, and its committed types are what openapi-typescript
 * makes of that document today.
 */
describe('@pfs/client is generated from the document the gateway serves', () => {
  let gateway: TestGateway;
  let served: string;
  let work: string;

  beforeAll(async () => {
    // Default settings: the document's descriptions quote limits and windows.
    gateway = await startTestGateway({ baseEnv: { REDIS_URL: testRedisUrl(), QUEUE_PREFIX: queuePrefix, SERVICE_ENV: 'sandbox' } });
    served = `${JSON.stringify(JSON.parse((await gateway.request('/openapi.json')).text), null, 2)}\n`;
    work = mkdtempSync(join(tmpdir(), 'pfs-client-contract-'));
  });

  afterAll(async () => {
    await gateway?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('commits the served document', () => {
    if (UPDATE) writeFileSync(COMMITTED_DOCUMENT, served);
    expect(readFileSync(COMMITTED_DOCUMENT, 'utf8') === served ? 'same' : 'libs/client/openapi.json differs from the served document: run PFS_UPDATE_CLIENT=1 on this test').toBe('same');
  });

  it('commits the types openapi-typescript generates from it', () => {
    const document = join(work, 'openapi.json');
    const types = UPDATE ? COMMITTED_TYPES : join(work, 'schema.ts');
    writeFileSync(document, served);
    execFileSync(process.execPath, [join(CLIENT, 'scripts/generate-types.mjs'), '--document', document, '--out', types], { cwd: CLIENT, stdio: 'pipe' });
    expect(readFileSync(COMMITTED_TYPES, 'utf8') === readFileSync(types, 'utf8') ? 'same' : 'libs/client/src/generated/schema.ts differs from the generated types: run PFS_UPDATE_CLIENT=1 on this test').toBe('same');
  });
});
