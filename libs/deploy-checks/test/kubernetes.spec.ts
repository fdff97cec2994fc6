import { execFileSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { isolateQueues } from '@pfs/testing';
import { WEBHOOK_DELIVERY_QUEUE } from '@pfs/contracts';
import { queueDepthGauge } from '@pfs/platform';
import { Registry } from 'prom-client';
import {
  containers,
  declaredObjects,
  envVars,
  generatedConfigMaps,
  isKustomizationDir,
  isWorkload,
  loadKustomization,
  patchTargets,
  podLabels,
  podSpec,
  references,
  resolvePort,
  selects,
  toObject,
  type Container,
  type K8sObject,
} from './support/kubernetes';
import {
  adminPort,
  appNames,
  appPort,
  dictAt,
  exists,
  field,
  filesUnder,
  isDict,
  isYamlFile,
  listAt,
  loadYamlDocuments,
  repoPath,
  SECRET_NAME,
  stringAt,
} from './support/repo';

isolateQueues('deploy-k8s');

const BASE = 'k8s/base';
const OVERLAYS = ['sandbox', 'production'];
const SECRET = 'pfs-secrets';
const CONFIG = 'pfs-config';
/** Image names in the base; overlays map them to a registry and a release tag. */
const imageOf = (target: string) => `partner-finance-service/${target}`;

const apps = appNames();
let base: K8sObject[];

beforeAll(() => {
  base = declaredObjects(BASE);
});

function find(kind: string, name: string): K8sObject {
  const found = base.find((object) => object.kind === kind && object.name === name);
  if (!found) throw new Error(`${BASE} has no ${kind} ${name}`);
  return found;
}

function appContainer(app: string): Container {
  const found = containers(find('Deployment', app)).find((container) => !container.init && container.name === app);
  if (!found) throw new Error(`Deployment ${app} has no container named ${app}`);
  return found;
}

/** Apps whose main container gets DATABASE_URL: they use PostgreSQL. */
const usesDatabase = (app: string) => envVars(appContainer(app)).some((env) => env.name === 'DATABASE_URL');

describe('k8s/: every YAML file', () => {
  const files = filesUnder('k8s', isYamlFile);

  it('parses, and every document is a Kubernetes object or a Kustomization', () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      for (const value of loadYamlDocuments(file)) {
        if (field(value, 'kind') === 'Kustomization') continue;
        expect(() => toObject(value, file)).not.toThrow();
      }
    }
  });

  it('is used: each is a kustomization or referenced by one', () => {
    const kustomizations = files.filter((file) => file.endsWith('/kustomization.yaml'));
    const referenced = new Set(kustomizations.flatMap((file) => references(loadKustomization(file.replace(/\/kustomization\.yaml$/, ''))).map((ref) => ref.path)));
    expect(files.filter((file) => !file.endsWith('/kustomization.yaml') && !referenced.has(file))).toEqual([]);
  });
});

describe.each([BASE, ...OVERLAYS.map((overlay) => `k8s/overlays/${overlay}`)])('the kustomization %s', (dir) => {
  it('references only files and folders that exist (a folder must be a kustomization)', () => {
    const kustomization = loadKustomization(dir);
    const missing = references(kustomization).filter((ref) => !exists(ref.path));
    expect(missing).toEqual([]);
    for (const ref of references(kustomization).filter((r) => r.field === 'resources' && !isYamlFile(r.path))) {
      expect({ path: ref.path, kustomization: isKustomizationDir(ref.path) }).toEqual({ path: ref.path, kustomization: true });
    }
  });

  it('patches only objects its resources declare', () => {
    const declared = declaredObjects(dir);
    const dangling = patchTargets(loadKustomization(dir)).filter(
      (target) => !declared.some((object) => object.kind === target.kind && object.name === target.name),
    );
    expect(dangling).toEqual([]);
  });

  it('generates no Secret and declares no Secret object', () => {
    expect(listAt(loadKustomization(dir).body, 'secretGenerator')).toEqual([]);
    expect(declaredObjects(dir).filter((object) => object.kind === 'Secret').map((object) => object.name)).toEqual([]);
  });
});

describe('k8s/base', () => {
  it('has a Deployment and a Service for every app under apps/', () => {
    const missing = apps.flatMap((app) =>
      ['Deployment', 'Service'].filter((kind) => !base.some((object) => object.kind === kind && object.name === app)).map((kind) => `${kind} ${app}`),
    );
    expect(missing).toEqual([]);
  });

  describe.each(apps)('the %s Deployment', (app) => {
    const { variable, port } = appPort(app);
    const admin = adminPort(app);

    it('selects its own pods and runs its own image', () => {
      const deployment = find('Deployment', app);
      expect(podLabels(deployment)['app.kubernetes.io/name']).toBe(app);
      expect(selects(field(deployment.body, 'spec.selector'), podLabels(deployment))).toBe(true);
      expect(appContainer(app).image).toBe(imageOf(app));
    });

    it(`listens on ${variable}=${port} and ADMIN_PORT=${admin}, declared as container ports`, () => {
      const container = appContainer(app);
      expect(envVars(container).find((env) => env.name === variable)?.value).toBe(String(port));
      expect(envVars(container).find((env) => env.name === 'ADMIN_PORT')?.value).toBe(String(admin));
      expect(listAt(container.body, 'ports').map((entry) => field(entry, 'containerPort'))).toEqual([...new Set([port, admin])]);
    });

    it(`has startup and liveness probes on /healthz and a readiness probe on /readyz, on the admin port ${admin}`, () => {
      const container = appContainer(app);
      for (const [probe, path] of [
        ['startupProbe', '/healthz'],
        ['livenessProbe', '/healthz'],
        ['readinessProbe', '/readyz'],
      ]) {
        const httpGet = dictAt(container.body, `${probe}.httpGet`);
        expect({ probe, path: httpGet.path, port: resolvePort(container, httpGet.port) }).toEqual({ probe, path, port: admin });
      }
    });

    it(`is scraped on its admin port ${admin}, /metrics`, () => {
      const annotations = dictAt(field(find('Deployment', app).body, 'spec.template'), 'metadata.annotations');
      expect(annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(admin), 'prometheus.io/path': '/metrics' });
    });

    it('sets CPU and memory requests and limits on every container, init containers included', () => {
      for (const container of containers(find('Deployment', app))) {
        for (const bound of ['requests', 'limits']) {
          for (const resource of ['cpu', 'memory']) {
            expect({ container: container.name, [`${bound}.${resource}`]: stringAt(container.body, `resources.${bound}.${resource}`) !== undefined }).toEqual({
              container: container.name,
              [`${bound}.${resource}`]: true,
            });
          }
        }
      }
    });

    it('runs as non-root, without privilege escalation, capabilities or a writable root filesystem', () => {
      const deployment = find('Deployment', app);
      expect(dictAt(podSpec(deployment), 'securityContext')).toMatchObject({ runAsNonRoot: true });
      expect(podSpec(deployment).automountServiceAccountToken).toBe(false);
      for (const container of containers(deployment)) {
        expect({ container: container.name, ...dictAt(container.body, 'securityContext') }).toMatchObject({
          container: container.name,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
      }
    });

    it('reads its settings from the ConfigMap and REDIS_URL, API_KEY_PEPPER, CURSOR_SECRET from the Secret', () => {
      const container = appContainer(app);
      expect(listAt(container.body, 'envFrom').map((entry) => stringAt(entry, 'configMapRef.name'))).toContain(CONFIG);
      const fromSecret = envVars(container)
        .filter((env) => env.secretKeyRef?.name === SECRET)
        .map((env) => env.name);
      expect(fromSecret).toEqual(expect.arrayContaining(['REDIS_URL', 'API_KEY_PEPPER', 'CURSOR_SECRET']));
    });

    it('starts only after the migrations, if it uses the database', () => {
      const init = containers(find('Deployment', app)).filter((container) => container.init);
      if (!usesDatabase(app)) {
        expect(init).toEqual([]);
        return;
      }
      const wait = init.find((container) => container.name === 'wait-for-migrations');
      expect(wait?.image).toBe(imageOf('migrate'));
      expect(listAt(wait?.body, 'command')).toEqual(['node', 'wait-for-migrations.mjs', '--wait']);
      expect(envVars(wait as Container).find((env) => env.name === 'DATABASE_URL')?.secretKeyRef?.name).toBe(SECRET);
    });

    it('has a Service that reaches its port', () => {
      const service = find('Service', app);
      expect(selects({ matchLabels: dictAt(service.body, 'spec.selector') }, podLabels(find('Deployment', app)))).toBe(true);
      const targets = listAt(service.body, 'spec.ports').map((entry) => resolvePort(appContainer(app), field(entry, 'targetPort') ?? field(entry, 'port')));
      expect(targets).toEqual([port]);
      // The gateway's Service is what ingress and load balancers reach: never its metrics.
      if (admin !== port) expect(listAt(service.body, 'spec.ports').map((entry) => field(entry, 'port'))).not.toContain(admin);
    });

    it('has a PodDisruptionBudget', () => {
      const budgets = base.filter((object) => object.kind === 'PodDisruptionBudget' && selects(field(object.body, 'spec.selector'), podLabels(find('Deployment', app))));
      expect(budgets).toHaveLength(1);
      const spec = dictAt(budgets[0].body, 'spec');
      expect('minAvailable' in spec || 'maxUnavailable' in spec).toBe(true);
    });
  });

  describe('the migration Job', () => {
    it('runs prisma migrate deploy (the migrate image CMD) once, with DATABASE_URL from the Secret', () => {
      const job = find('Job', 'migrate');
      const [container, ...others] = containers(job);
      expect(others).toEqual([]);
      expect(container.image).toBe(imageOf('migrate'));
      expect(container.body.command).toBeUndefined();
      expect(container.body.args).toBeUndefined();
      expect(podSpec(job).restartPolicy).toBe('Never');
      expect(envVars(container).find((env) => env.name === 'DATABASE_URL')?.secretKeyRef?.name).toBe(SECRET);
      for (const bound of ['requests', 'limits']) expect(Object.keys(dictAt(container.body, `resources.${bound}`)).sort()).toEqual(['cpu', 'memory']);
    });
  });

  describe('secrets', () => {
    it('are only ever referenced: every credential-like env var comes from the pfs-secrets Secret', () => {
      const offenders: string[] = [];
      for (const workload of base.filter(isWorkload)) {
        for (const container of containers(workload)) {
          for (const env of envVars(container)) {
            if (SECRET_NAME.test(env.name) && env.secretKeyRef?.name !== SECRET) offenders.push(`${workload.name}/${container.name}: ${env.name}`);
            if (env.value !== undefined && /:\/\/[^/@\s]+:[^@\s]+@/.test(env.value)) offenders.push(`${workload.name}/${container.name}: ${env.name} holds a URL with a password`);
          }
          for (const source of listAt(container.body, 'envFrom')) {
            if (stringAt(source, 'secretRef.name') !== undefined && stringAt(source, 'secretRef.name') !== SECRET) offenders.push(`${workload.name}/${container.name}: envFrom ${stringAt(source, 'secretRef.name')}`);
          }
        }
      }
      expect(offenders).toEqual([]);
    });

    it('never appear in the ConfigMap', () => {
      const config = generatedConfigMaps(loadKustomization(BASE)).get(CONFIG);
      expect(config).toBeDefined();
      expect(Object.keys(config?.data ?? {}).filter((key) => SECRET_NAME.test(key))).toEqual([]);
    });
  });

  describe('autoscaling', () => {
    it.each(['gateway', 'webhook-delivery-worker'])('%s has a HorizontalPodAutoscaler that owns its replica count', (app) => {
      const hpa = find('HorizontalPodAutoscaler', app);
      expect(hpa.apiVersion).toBe('autoscaling/v2');
      expect(dictAt(hpa.body, 'spec.scaleTargetRef')).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', name: app });
      const { minReplicas, maxReplicas } = dictAt(hpa.body, 'spec');
      expect(Number(minReplicas)).toBeGreaterThanOrEqual(1);
      expect(Number(maxReplicas)).toBeGreaterThan(Number(minReplicas));
      expect(listAt(hpa.body, 'spec.metrics').length).toBeGreaterThan(0);
      // A replicas field would fight the autoscaler on every apply.
      expect(field(find('Deployment', app).body, 'spec.replicas')).toBeUndefined();
    });

    it('scales the delivery worker on its queue depth too, with a metric and labels the apps export', async () => {
      const external = listAt(find('HorizontalPodAutoscaler', 'webhook-delivery-worker').body, 'spec.metrics').filter((metric) => stringAt(metric, 'type') === 'External');
      expect(external).toHaveLength(1);
      const registry = new Registry();
      queueDepthGauge(registry, async () => [{ queue: WEBHOOK_DELIVERY_QUEUE, state: 'waiting', count: 3 }]);
      const exported = await registry.getMetricsAsJSON();
      const name = stringAt(external[0], 'external.metric.name');
      const sample = exported.find((metric) => metric.name === name)?.values[0];
      expect(sample?.labels).toEqual(dictAt(external[0], 'external.metric.selector.matchLabels'));
      expect(Number(stringAt(external[0], 'external.target.averageValue'))).toBeGreaterThan(0);
    });
  });

  describe('network policies', () => {
    const policies = () => base.filter((object) => object.kind === 'NetworkPolicy');
    const policiesFor = (labels: Record<string, string>) => policies().filter((policy) => selects(field(policy.body, 'spec.podSelector'), labels));
    const PRIVATE_RANGES = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16'];

    /** Every port a set of policies opens in one direction, as `port/protocol`, plus the rules. */
    function opened(list: K8sObject[], direction: 'ingress' | 'egress'): { ports: string[]; rules: unknown[] } {
      const rules = list.flatMap((policy) => listAt(policy.body, `spec.${direction}`));
      const ports = rules.flatMap((rule) => {
        const declared = listAt(rule, 'ports');
        // A rule without ports opens every port: never wanted here.
        if (declared.length === 0) return ['*'];
        return declared.map((entry) => `${String(field(entry, 'port'))}/${stringAt(entry, 'protocol') ?? 'TCP'}`);
      });
      return { ports: [...new Set(ports)].sort(), rules };
    }

    it('deny everything by default', () => {
      const deny = policies().filter((policy) => Object.keys(dictAt(policy.body, 'spec.podSelector')).length === 0);
      expect(deny).toHaveLength(1);
      expect(listAt(deny[0].body, 'spec.policyTypes').sort()).toEqual(['Egress', 'Ingress']);
      expect(listAt(deny[0].body, 'spec.ingress')).toEqual([]);
      expect(listAt(deny[0].body, 'spec.egress')).toEqual([]);
    });

    it('cover every app and the migration Job, in both directions', () => {
      for (const labels of [...apps.map((app) => podLabels(find('Deployment', app))), podLabels(find('Job', 'migrate'))]) {
        const own = policiesFor(labels).filter((policy) => Object.keys(dictAt(policy.body, 'spec.podSelector')).length > 0);
        expect({ pod: labels['app.kubernetes.io/name'], policyTypes: own.flatMap((policy) => listAt(policy.body, 'spec.policyTypes')).sort() }).toEqual({
          pod: labels['app.kubernetes.io/name'],
          policyTypes: ['Egress', 'Ingress'],
        });
      }
    });

    it('let DNS out only to kube-dns', () => {
      for (const policy of policies()) {
        for (const rule of listAt(policy.body, 'spec.egress')) {
          if (!listAt(rule, 'ports').some((entry) => field(entry, 'port') === 53)) continue;
          expect(listAt(rule, 'to').map((peer) => stringAt(peer, 'podSelector.matchLabels.k8s-app'))).toEqual(['kube-dns']);
        }
      }
    });

    it.each(apps)('open only what %s needs', (app) => {
      const admin = adminPort(app);
      const own = policiesFor(podLabels(find('Deployment', app)));
      const egress = opened(own, 'egress');
      const ingress = opened(own, 'ingress');
      const dns = ['53/TCP', '53/UDP'];
      const namespacesOf = (rule: unknown) => listAt(rule, 'from').map((peer) => dictAt(peer, 'namespaceSelector.matchLabels')['kubernetes.io/metadata.name']);
      const opens = (rule: unknown, port: number) => listAt(rule, 'ports').some((entry) => field(entry, 'port') === port);
      // In: the admin port, and only from the monitoring namespace.
      for (const rule of ingress.rules.filter((candidate) => opens(candidate, admin))) expect({ app, namespaces: namespacesOf(rule) }).toEqual({ app, namespaces: ['monitoring'] });
      // Out to a trace collector (OTLP/HTTP): only into the monitoring namespace.
      const otlp = egress.rules.filter((rule) => opens(rule, 4318));
      expect({ app, rules: otlp.length, namespaces: otlp.flatMap((rule) => listAt(rule, 'to').map((peer) => dictAt(peer, 'namespaceSelector.matchLabels')['kubernetes.io/metadata.name'])) }).toEqual({
        app,
        rules: 1,
        namespaces: ['monitoring'],
      });
      if (app === 'gateway') {
        const { port } = appPort(app);
        expect(egress.ports).toEqual([...dns, '4318/TCP', '6379/TCP'].sort());
        // And the public port from anywhere (ingress controller, load balancer), in a rule of its own.
        expect(ingress.ports).toEqual([`${port}/TCP`, `${admin}/TCP`].sort());
        expect(ingress.rules.filter((rule) => opens(rule, port) && opens(rule, admin))).toEqual([]);
        return;
      }
      const internet = app === 'webhook-delivery-worker' ? ['443/TCP'] : [];
      expect(egress.ports).toEqual([...dns, '4318/TCP', '5432/TCP', '6379/TCP', ...internet].sort());
      expect(ingress.ports).toEqual([`${admin}/TCP`]);
      if (internet.length > 0) {
        const https = egress.rules.filter((rule) => listAt(rule, 'ports').some((entry) => field(entry, 'port') === 443));
        expect(https).toHaveLength(1);
        const blocks = listAt(https[0], 'to').map((peer) => dictAt(peer, 'ipBlock'));
        const v4 = blocks.find((block) => block.cidr === '0.0.0.0/0');
        expect(v4).toBeDefined();
        expect(listAt(v4, 'except')).toEqual(expect.arrayContaining(PRIVATE_RANGES));
        expect(blocks.every((block) => listAt(block, 'except').length > 0)).toBe(true);
      }
    });

    it('let the migration Job reach only PostgreSQL and DNS', () => {
      const own = policiesFor(podLabels(find('Job', 'migrate')));
      expect(opened(own, 'egress').ports).toEqual(['5432/TCP', '53/TCP', '53/UDP'].sort());
      expect(opened(own, 'ingress').ports).toEqual([]);
    });
  });
});

describe.each(OVERLAYS)('the %s overlay', (overlay) => {
  const dir = `k8s/overlays/${overlay}`;

  it(`sets SERVICE_ENV=${overlay} by merging into the base ConfigMap`, () => {
    const config = generatedConfigMaps(loadKustomization(dir)).get(CONFIG);
    expect(config).toEqual({ behavior: 'merge', data: expect.objectContaining({ SERVICE_ENV: overlay }) });
  });

  it('pins every image of the base to a release tag in the registry the release workflow pushes to', () => {
    const images = listAt(loadKustomization(dir).body, 'images');
    const used = new Set(base.filter(isWorkload).flatMap((workload) => containers(workload).map((container) => container.image)));
    const mapped = new Map(images.map((image) => [stringAt(image, 'name'), image]));
    expect([...used].filter((image) => !mapped.has(image))).toEqual([]);
    for (const image of used) {
      const entry = mapped.get(image);
      const target = image.replace(/^partner-finance-service\//, '');
      expect(stringAt(entry, 'newName')).toMatch(new RegExp(`^ghcr\\.io/[a-z0-9-]+/partner-finance-service/${target}$`));
      expect(stringAt(entry, 'newTag')).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  it('puts everything in its own namespace', () => {
    const kustomization = loadKustomization(dir);
    expect(kustomization.body.namespace).toBe(`pfs-${overlay}`);
    expect(declaredObjects(dir).some((object) => object.kind === 'Namespace' && object.name === `pfs-${overlay}`)).toBe(true);
  });
});

describe('overlays compared', () => {
  const replicas = (overlay: string) =>
    new Map(listAt(loadKustomization(`k8s/overlays/${overlay}`).body, 'replicas').map((entry) => [stringAt(entry, 'name'), Number(field(entry, 'count'))]));
  const hpaMin = (overlay: string, name: string) => {
    const patch = listAt(loadKustomization(`k8s/overlays/${overlay}`).body, 'patches').find(
      (entry) => stringAt(entry, 'target.kind') === 'HorizontalPodAutoscaler' && stringAt(entry, 'target.name') === name,
    );
    const match = /path: \/spec\/minReplicas\s+value: (\d+)/.exec(stringAt(patch, 'patch') ?? '');
    return match ? Number(match[1]) : undefined;
  };

  it('sandbox runs one replica of each app, production more', () => {
    const fixed = apps.filter((app) => field(find('Deployment', app).body, 'spec.replicas') !== undefined);
    expect(fixed.length).toBeGreaterThan(0);
    for (const app of fixed) {
      expect({ app, sandbox: replicas('sandbox').get(app) }).toEqual({ app, sandbox: 1 });
      expect(replicas('production').get(app)).toBeGreaterThan(1);
    }
    for (const app of ['gateway', 'webhook-delivery-worker']) {
      expect({ app, sandbox: hpaMin('sandbox', app) }).toEqual({ app, sandbox: 1 });
      expect(hpaMin('production', app)).toBeGreaterThan(1);
    }
  });
});

// kustomize itself, when kubectl is installed: the overlays must build, and the result must
// carry what the static reading above assumed.
const kubectl = (() => {
  try {
    execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

(kubectl ? describe : describe.skip).each(OVERLAYS)('kubectl kustomize k8s/overlays/%s', (overlay) => {
  let rendered: K8sObject[];

  beforeAll(() => {
    const output = execFileSync('kubectl', ['kustomize', repoPath(`k8s/overlays/${overlay}`)], { encoding: 'utf8' });
    rendered = parseAllDocuments(output).map((document) => toObject(document.toJS(), `kustomize ${overlay}`));
  });

  it('renders every app with its ConfigMap, the Secret reference and a tagged image', () => {
    const config = rendered.find((object) => object.kind === 'ConfigMap' && object.name.startsWith(`${CONFIG}-`));
    expect(stringAt(config?.body, 'data.SERVICE_ENV')).toBe(overlay);
    for (const app of apps) {
      const deployment = rendered.find((object) => object.kind === 'Deployment' && object.name === app);
      expect(deployment).toBeDefined();
      const main = containers(deployment as K8sObject).find((container) => container.name === app) as Container;
      expect(main.image).toMatch(new RegExp(`^ghcr\\.io/.+/${app}:\\d+\\.\\d+\\.\\d+$`));
      expect(listAt(main.body, 'envFrom').map((entry) => stringAt(entry, 'configMapRef.name'))).toContain(config?.name);
      expect(stringAt(deployment?.body, 'metadata.namespace')).toBe(`pfs-${overlay}`);
    }
  });

  it('keeps the HPA bounds and replica counts it patched', () => {
    for (const name of ['gateway', 'webhook-delivery-worker']) {
      const hpa = rendered.find((object) => object.kind === 'HorizontalPodAutoscaler' && object.name === name);
      const min = Number(field(hpa?.body, 'spec.minReplicas'));
      expect(overlay === 'sandbox' ? min === 1 : min > 1).toBe(true);
    }
    const services = rendered.filter((object) => object.kind === 'Deployment' && isDict(object.body.spec) && object.body.spec.replicas !== undefined);
    expect(services.length).toBeGreaterThan(0);
    for (const deployment of services) expect(overlay === 'sandbox' ? field(deployment.body, 'spec.replicas') === 1 : Number(field(deployment.body, 'spec.replicas')) > 1).toBe(true);
  });
});
