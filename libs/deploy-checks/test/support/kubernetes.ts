import { join, normalize } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { dictAt, exists, field, isDict, listAt, loadYaml, loadYamlDocuments, stringAt, type Dict } from './repo';

/** A Kubernetes object as read from YAML, with the file it came from. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  name: string;
  body: Dict;
  file: string;
}

export function toObject(value: unknown, file: string): K8sObject {
  const apiVersion = stringAt(value, 'apiVersion');
  const kind = stringAt(value, 'kind');
  const name = stringAt(value, 'metadata.name');
  if (!isDict(value) || !apiVersion || !kind || !name) {
    throw new Error(`${file}: every document needs apiVersion, kind and metadata.name`);
  }
  return { apiVersion, kind, name, body: value, file };
}

export interface Kustomization {
  /** Repository-relative folder. */
  dir: string;
  body: Dict;
}

export function loadKustomization(dir: string): Kustomization {
  const body = loadYaml(join(dir, 'kustomization.yaml'));
  if (!isDict(body) || body.kind !== 'Kustomization') throw new Error(`${dir}/kustomization.yaml is not a Kustomization`);
  return { dir, body };
}

export interface Reference {
  field: string;
  /** Repository-relative path the entry points at. */
  path: string;
}

/** Every file or folder a kustomization names: resources, components, patches, generator inputs. */
export function references(kustomization: Kustomization): Reference[] {
  const { dir, body } = kustomization;
  const refs: Reference[] = [];
  const add = (fieldName: string, entry: unknown) => {
    if (typeof entry === 'string') refs.push({ field: fieldName, path: normalize(join(dir, entry)) });
  };
  for (const entry of listAt(body, 'resources')) add('resources', entry);
  for (const entry of listAt(body, 'components')) add('components', entry);
  for (const entry of listAt(body, 'patchesStrategicMerge')) add('patchesStrategicMerge', entry);
  for (const patch of listAt(body, 'patches')) add('patches', field(patch, 'path'));
  for (const generator of [...listAt(body, 'configMapGenerator'), ...listAt(body, 'secretGenerator')]) {
    for (const entry of [...listAt(generator, 'files'), ...listAt(generator, 'envs')]) {
      add('generator', typeof entry === 'string' ? entry.replace(/^[^=]+=/, '') : entry);
    }
  }
  return refs;
}

/** A resource entry that is a folder is another kustomization; a file is YAML objects. */
export function isKustomizationDir(path: string): boolean {
  return exists(join(path, 'kustomization.yaml'));
}

/**
 * The objects a kustomization's resources declare (recursively through bases), before patches,
 * generators and transformers: what the patches of an overlay may target.
 */
export function declaredObjects(dir: string): K8sObject[] {
  const kustomization = loadKustomization(dir);
  const objects: K8sObject[] = [];
  for (const ref of references(kustomization).filter((r) => r.field === 'resources')) {
    if (isKustomizationDir(ref.path)) objects.push(...declaredObjects(ref.path));
    else objects.push(...loadYamlDocuments(ref.path).map((value) => toObject(value, ref.path)));
  }
  return objects;
}

/** ConfigMaps a kustomization generates: name → keys and values of its literals. */
export function generatedConfigMaps(kustomization: Kustomization): Map<string, { behavior: string; data: Record<string, string> }> {
  const maps = new Map<string, { behavior: string; data: Record<string, string> }>();
  for (const generator of listAt(kustomization.body, 'configMapGenerator')) {
    const name = stringAt(generator, 'name');
    if (!name) throw new Error(`${kustomization.dir}: a configMapGenerator without a name`);
    if (listAt(generator, 'files').length > 0 || listAt(generator, 'envs').length > 0) {
      throw new Error(`${kustomization.dir}: configMapGenerator ${name} must use literals, so the checks can read every key`);
    }
    const data: Record<string, string> = {};
    for (const literal of listAt(generator, 'literals')) {
      const match = typeof literal === 'string' ? /^([^=]+)=(.*)$/.exec(literal) : null;
      if (!match) throw new Error(`${kustomization.dir}: configMapGenerator ${name} has a literal that is not KEY=value: ${String(literal)}`);
      data[match[1]] = match[2];
    }
    maps.set(name, { behavior: stringAt(generator, 'behavior') ?? 'create', data });
  }
  return maps;
}

/** What a patch entry targets: `target:` (JSON 6902 or selector patches) or the patch file's own kind/name. */
export function patchTargets(kustomization: Kustomization): { kind: string; name: string; origin: string }[] {
  const targets: { kind: string; name: string; origin: string }[] = [];
  for (const patch of listAt(kustomization.body, 'patches')) {
    const origin = `${kustomization.dir}/kustomization.yaml patches`;
    const target = dictAt(patch, 'target');
    const path = stringAt(patch, 'path');
    const inline = stringAt(patch, 'patch');
    if (inline !== undefined) {
      const documents = parseAllDocuments(inline);
      const list = Array.isArray(documents) ? documents : [];
      if (list.some((document) => document.errors.length > 0)) throw new Error(`${origin}: an inline patch does not parse`);
      for (const operation of list.flatMap((document) => {
        const value = document.toJS() as unknown;
        return Array.isArray(value) ? value : [];
      })) {
        if (!['add', 'remove', 'replace', 'move', 'copy', 'test'].includes(String(field(operation, 'op'))) || typeof field(operation, 'path') !== 'string') {
          throw new Error(`${origin}: an inline JSON patch operation needs op and path`);
        }
      }
    }
    if (stringAt(target, 'kind') && stringAt(target, 'name')) {
      targets.push({ kind: stringAt(target, 'kind') as string, name: stringAt(target, 'name') as string, origin });
    } else if (path) {
      const file = normalize(join(kustomization.dir, path));
      for (const value of loadYamlDocuments(file)) {
        const object = toObject(value, file);
        targets.push({ kind: object.kind, name: object.name, origin: file });
      }
    } else {
      throw new Error(`${origin}: a patch needs a target (kind and name) or a path`);
    }
  }
  return targets;
}

export interface EnvVar {
  name: string;
  value?: string;
  secretKeyRef?: { name: string; key: string };
}

export interface Container {
  name: string;
  image: string;
  body: Dict;
  init: boolean;
}

const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'Job', 'CronJob']);

export function isWorkload(object: K8sObject): boolean {
  return WORKLOAD_KINDS.has(object.kind);
}

export function podSpec(object: K8sObject): Dict {
  return object.kind === 'CronJob' ? dictAt(object.body, 'spec.jobTemplate.spec.template.spec') : dictAt(object.body, 'spec.template.spec');
}

export function podLabels(object: K8sObject): Record<string, string> {
  const path = object.kind === 'CronJob' ? 'spec.jobTemplate.spec.template.metadata.labels' : 'spec.template.metadata.labels';
  return dictAt(object.body, path) as Record<string, string>;
}

export function containers(object: K8sObject): Container[] {
  const spec = podSpec(object);
  const read = (list: unknown[], init: boolean): Container[] =>
    list.map((body) => {
      if (!isDict(body)) throw new Error(`${object.file}: ${object.kind} ${object.name} has a container that is not a mapping`);
      return { name: String(body.name), image: String(body.image), body, init };
    });
  return [...read(listAt(spec, 'initContainers'), true), ...read(listAt(spec, 'containers'), false)];
}

export function envVars(container: Container): EnvVar[] {
  return listAt(container.body, 'env').map((entry) => {
    const name = stringAt(entry, 'name');
    if (!name) throw new Error(`container ${container.name} has an env entry without a name`);
    const ref = field(entry, 'valueFrom.secretKeyRef');
    return {
      name,
      value: stringAt(entry, 'value'),
      secretKeyRef: isDict(ref) ? { name: String(ref.name), key: String(ref.key) } : undefined,
    };
  });
}

/** Whether a label selector (matchLabels) picks pods with these labels; `{}` picks every pod. */
export function selects(selector: unknown, labels: Record<string, string>): boolean {
  if (!isDict(selector)) return false;
  if (listAt(selector, 'matchExpressions').length > 0) throw new Error('matchExpressions are not read by these checks; use matchLabels');
  const wanted = dictAt(selector, 'matchLabels');
  return Object.entries(wanted).every(([key, value]) => labels[key] === value);
}

/** A container port by name or number, as probes and Services refer to it. */
export function resolvePort(container: Container, port: unknown): number | undefined {
  if (typeof port === 'number') return port;
  const declared = listAt(container.body, 'ports').find((entry) => field(entry, 'name') === port);
  const number = field(declared, 'containerPort');
  return typeof number === 'number' ? number : undefined;
}
