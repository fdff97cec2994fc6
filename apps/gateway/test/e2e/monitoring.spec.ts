import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { exposedFamilies, isExposed, isolateQueues, metricNamesIn } from '@pfs/testing';
import { startE2eStack, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-monitoring');
const MONITORING = resolve(__dirname, '../../../../k8s/monitoring');

/*
 * The dashboard and the alerts in k8s/monitoring read only what the running apps expose: every
 * metric name in their expressions is a family on some app's /metrics (admin port).
 */
describe('k8s/monitoring against the running apps (end to end)', () => {
  let e2e: E2eStack;

  beforeAll(async () => {
    e2e = await startE2eStack(queuePrefix);
  }, 90000);

  afterAll(() => e2e?.stop());

  it('every metric the dashboard and the alerts read is exported by an app', async () => {
    const families = new Map<string, string>();
    for (const app of e2e.stack.apps.values()) {
      const answer = await fetch(`${app.adminUrl}/metrics`);
      expect({ app: app.instance, status: answer.status }).toEqual({ app: app.instance, status: 200 });
      for (const [name, type] of exposedFamilies(await answer.text())) families.set(name, type);
    }
    const rules = parse(readFileSync(join(MONITORING, 'prometheus-rules.yaml'), 'utf8')) as { spec: { groups: Array<{ rules: Array<{ alert: string; expr: string }> }> } };
    const dashboard = JSON.parse(readFileSync(join(MONITORING, 'grafana-dashboard.json'), 'utf8')) as { panels: Array<{ title: string; targets?: Array<{ expr: string }> }> };
    const expressions = [
      ...rules.spec.groups.flatMap((group) => group.rules.map((rule) => ({ where: rule.alert, expr: rule.expr }))),
      ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: panel.title, expr: target.expr }))),
    ];
    expect(expressions.length).toBeGreaterThan(20);
    const missing = expressions.flatMap(({ where, expr }) => metricNamesIn(expr).filter((name) => !isExposed(name, families)).map((name) => `${where}: ${name}`));
    expect(missing).toEqual([]);
  });
});
