import { resolve } from 'node:path';
import { exposedFamilies, isExposed, isolateQueues, metricNamesIn, readMonitoring } from '@pfs/testing';
import { startE2eStack, type E2eStack } from './support/e2e-stack';

const queuePrefix = isolateQueues('gw-e2e-monitoring');
const ROOT = resolve(__dirname, '../../../..');

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
    const { expressions } = await readMonitoring(ROOT);
    expect(expressions.length).toBeGreaterThan(20);
    const missing = expressions.flatMap(({ where, expr }) => metricNamesIn(expr).filter((name) => !isExposed(name, families)).map((name) => `${where}: ${name}`));
    expect(missing).toEqual([]);
  });
});
