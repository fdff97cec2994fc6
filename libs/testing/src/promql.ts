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
