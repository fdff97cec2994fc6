import { isolateQueues } from '@pfs/testing';
import { parseDockerfile } from './support/dockerfile';
import { containers, declaredObjects, envVars, isWorkload } from './support/kubernetes';
import { dictAt, listAt, loadYaml, readRepoFile } from './support/repo';

isolateQueues('deploy-readme');

/** The README's deployment section: from its heading to the next top-level heading. */
function deploymentSection(): string {
  const readme = readRepoFile('README.md');
  const start = readme.indexOf('\n## Deployment');
  if (start < 0) throw new Error('README.md has no "## Deployment" section');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

// The instructions must match the artifacts they describe.
describe("the README's deployment section", () => {
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
