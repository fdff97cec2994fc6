import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** PromQL's functions, aggregations and keywords: identifiers that are not metric names. */
const NOT_METRICS = new Set([
  'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'bool', 'and', 'or', 'unless', 'offset',
  'sum', 'min', 'max', 'avg', 'count', 'stddev', 'stdvar', 'topk', 'bottomk', 'quantile', 'count_values', 'group',
]);

/**
 * The metric names an expression reads: label matchers, `by (...)` lists, ranges and strings set
 * aside, every identifier left that is not a function call or a keyword.
 */
export function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*(?=\s*(\()?)/g)) {
    const [name, call] = [match[0], match[1]];
    if (call || NOT_METRICS.has(name) || /^(e|inf|nan)$/i.test(name)) continue;
    names.add(name);
  }
  return [...names].sort();
}

/** The families of a Prometheus text exposition, from its `# TYPE` lines: name → type. */
export function exposedFamilies(exposition: string): Map<string, string> {
  const families = new Map<string, string>();
  for (const match of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) families.set(match[1]!, match[2]!);
  return families;
}

/** Whether a series name belongs to an exposed family (a histogram's `_bucket`, `_sum` and `_count` included). */
export function isExposed(name: string, families: ReadonlyMap<string, string>): boolean {
  if (families.has(name)) return true;
  const histogram = /^(.*)_(bucket|sum|count)$/.exec(name);
  return histogram !== null && ['histogram', 'summary'].includes(families.get(histogram[1]!) ?? '');
}

/** One expression of the dashboard or the alerts in `k8s/monitoring`, with where it stands. */
export interface MonitoringExpression {
  where: string;
  expr: string;
}

export type Monitoring = Awaited<ReturnType<typeof readMonitoring>>;

/** The alert rules and the Grafana dashboard of `<root>/k8s/monitoring`, as written. */
export async function readMonitoring(root: string): Promise<{
  rules: { apiVersion: string; kind: string; spec: { groups: Array<{ name: string; rules: Array<{ alert: string; expr: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> }> }> } };
  dashboard: { uid: string; title: string; panels: Array<{ id: number; type: string; title: string; targets?: Array<{ expr: string; refId: string }> }>; templating: { list: Array<{ name: string; type: string }> } };
  expressions: MonitoringExpression[];
}> {
  // Loaded here, not with the library: see in-process-service.ts.
  const { parse } = await import('yaml');
  const dir = join(root, 'k8s/monitoring');
  const rules = parse(readFileSync(join(dir, 'prometheus-rules.yaml'), 'utf8')) as Monitoring['rules'];
  const dashboard = JSON.parse(readFileSync(join(dir, 'grafana-dashboard.json'), 'utf8')) as Monitoring['dashboard'];
  const expressions = [
    ...rules.spec.groups.flatMap((group) => group.rules.map((rule) => ({ where: `alert ${rule.alert}`, expr: rule.expr }))),
    ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `panel "${panel.title}" ${target.refId}`, expr: target.expr }))),
  ];
  return { rules, dashboard, expressions };
}
