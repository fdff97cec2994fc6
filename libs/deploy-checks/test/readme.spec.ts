import { isolateQueues } from '@pfs/testing';
import { commandNames, subscribedEventTypes, type CommandService } from '@pfs/contracts';
import { parseDockerfile } from './support/dockerfile';
import { containers, declaredObjects, envVars, isWorkload } from './support/kubernetes';
import { dictAt, listAt, loadYaml, readRepoFile } from './support/repo';

isolateQueues('deploy-readme');

/** The deployment guide (k8s/README.md, which the root README's Deployment section points to), up to its scaling part. */
function deploymentSection(): string {
  expect(readRepoFile('README.md')).toMatch(/\n## Deployment\n[^#]*\(k8s\/README\.md\)/);
  const guide = readRepoFile('k8s/README.md');
  const end = guide.indexOf('\n## More than one process');
  return end < 0 ? guide : guide.slice(0, end);
}

// The instructions must match the artifacts they describe.
describe('the deployment guide', () => {
  it('names every image target the release builds, each a Dockerfile stage', () => {
    const section = deploymentSection();
    const stages = parseDockerfile(readRepoFile('docker/Dockerfile')).stages.map((stage) => stage.name);
    const release = Object.values(dictAt(loadYaml('.github/workflows/release.yml'), 'jobs'));
    const targets = release.flatMap((job) => listAt(job, 'strategy.matrix.target').map(String));
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((name) => !stages.includes(name))).toEqual([]);
    expect(targets.filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
  });

  it('gives the compose command for docker/compose.yaml and names its services', () => {
    const section = deploymentSection();
    expect(section).toContain('docker compose -f docker/compose.yaml up --build');
    const services = Object.keys(dictAt(loadYaml('docker/compose.yaml'), 'services'));
    expect(services).toEqual(expect.arrayContaining(['postgres', 'redis', 'migrate', 'gateway']));
    expect(services.filter((name) => !section.includes(`\`${name}\``))).toEqual([]);
    const gatewayPorts = listAt(dictAt(loadYaml('docker/compose.yaml'), 'services.gateway'), 'ports').map(String);
    expect(gatewayPorts).toContain('3000:3000');
    expect(section).toContain('http://127.0.0.1:3000');
  });

  it('deploys both overlays with kubectl apply -k and names every key of the Secret', () => {
    const section = deploymentSection();
    for (const overlay of ['sandbox', 'production']) expect(section).toContain(`kubectl apply -k k8s/overlays/${overlay}`);
    const keys = new Set(
      declaredObjects('k8s/base')
        .filter(isWorkload)
        .flatMap((workload) => containers(workload).flatMap((container) => envVars(container).flatMap((env) => (env.secretKeyRef ? [env.secretKeyRef.key] : [])))),
    );
    expect(keys.size).toBeGreaterThan(0);
    expect([...keys].filter((key) => !section.includes(`--from-literal=${key}=`))).toEqual([]);
    expect(section).toContain('`pfs-secrets`');
  });
});

/** Each service app and the contract it serves. */
const SERVICE_APPS: ReadonlyArray<[string, CommandService]> = [
  ['organization-service', 'organization'],
  ['ledger-service', 'ledger'],
  ['quote-service', 'quote'],
  ['beneficiary-service', 'beneficiary'],
  ['webhook-delivery-service', 'webhook-delivery'],
  ['webhook-delivery-worker', 'webhook-delivery-worker'],
];

// What a reader of one app needs sits next to it, and stays true as the contract changes.
describe("each app's README", () => {
  it.each(SERVICE_APPS)('%s names every command of its queues and every event it consumes', (app, service) => {
    const readme = readRepoFile(`apps/${app}/README.md`);
    expect(commandNames(service).filter((command) => !readme.includes(`\`${command}\``))).toEqual([]);
    expect(subscribedEventTypes(service).filter((event) => !readme.includes(`\`${event}\``))).toEqual([]);
  });

  it('exists for every app, and the root README points to the guides that left it', () => {
    for (const app of ['gateway', ...SERVICE_APPS.map(([name]) => name)]) expect(readRepoFile(`apps/${app}/README.md`)).toMatch(new RegExp(`^# ${app}\\n`));
    const root = readRepoFile('README.md');
    for (const guide of ['libs/client/README.md', 'k8s/README.md', 'scripts/BENCHMARK.md', 'libs/messaging/README.md', 'apps/ledger-service/README.md']) {
      expect({ guide, linked: root.includes(`(${guide})`) }).toEqual({ guide, linked: true });
    }
  });
});
