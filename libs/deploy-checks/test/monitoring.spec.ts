import { resolve } from 'node:path';
import {
  commandRoundTripHistogram,
  createMetricsRegistry,
  dbPoolGauge,
  eventsDeadLetteredCounter,
  httpRequestDurationHistogram,
  jobDurationHistogram,
  jobOutcomesCounter,
  outboxMetrics,
  queueAgeGauge,
  queueDepthGauge,
  WebhookAttemptMetrics,
} from '@pfs/platform';
import { exposedFamilies, isExposed, isolateQueues, metricNamesIn, readMonitoring, type Monitoring } from '@pfs/testing';

isolateQueues('deploy-monitoring');

describe('what operators look at (k8s/monitoring)', () => {
  let rules: Monitoring['rules'];
  let dashboard: Monitoring['dashboard'];
  let expressions: Monitoring['expressions'];

  beforeAll(async () => {
    ({ rules, dashboard, expressions } = await readMonitoring(resolve(__dirname, '../../..')));
  });

  it('alerts on what needs a person, each with a severity, a summary and what to do', () => {
    expect(rules).toMatchObject({ apiVersion: 'monitoring.coreos.com/v1', kind: 'PrometheusRule' });
    const all = rules.spec.groups.flatMap((group) => group.rules);
    const names = all.map((rule) => rule.alert);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining(['PfsGatewayErrorRate', 'PfsDeadLettersGrowing', 'PfsOutboxLag', 'PfsWebhookDeliveriesFailing', 'PfsWebhookEndpointAutoDisabled']),
    );
    for (const rule of all) {
      expect({ alert: rule.alert, severity: rule.labels?.severity }).toEqual({ alert: rule.alert, severity: expect.stringMatching(/^(page|ticket)$/) });
      expect(rule.annotations?.summary).toEqual(expect.any(String));
      expect(rule.annotations?.description?.length ?? 0).toBeGreaterThan(40);
      if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smh]$/);
    }
  });

  it('draws RED per route and per command, queues, dead letters, deliveries, outbox lag and pools on one dashboard', () => {
    expect(dashboard.uid).toBe('partner-finance-service');
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(dashboard.templating.list.map((variable) => variable.name)).toEqual(['datasource', 'namespace']);
    const used = new Set(expressions.flatMap(({ expr }) => metricNamesIn(expr)));
    for (const metric of [
      'http_request_duration_seconds_count',
      'http_request_duration_seconds_bucket',
      'command_round_trip_seconds_bucket',
      'queue_jobs',
      'queue_oldest_waiting_age_seconds',
      'events_dead_lettered_total',
      'webhook_delivery_attempts_total',
      'webhook_delivery_duration_seconds_bucket',
      'webhook_endpoints_disabled_total',
      'outbox_oldest_unpublished_age_seconds',
      'db_pool_connections',
    ]) {
      expect({ metric, drawn: used.has(metric) }).toEqual({ metric, drawn: true });
    }
    for (const panel of dashboard.panels.filter((candidate) => candidate.type === 'timeseries')) expect(panel.targets?.length).toBeGreaterThan(0);
  });

  it('reads only metrics the apps export (every family of @pfs/platform, and Node process metrics)', async () => {
    const registry = createMetricsRegistry();
    httpRequestDurationHistogram(registry);
    commandRoundTripHistogram(registry);
    jobOutcomesCounter(registry);
    jobDurationHistogram(registry);
    eventsDeadLetteredCounter(registry);
    queueDepthGauge(registry, async () => []);
    queueAgeGauge(registry, async () => []);
    outboxMetrics(registry, 'ledger', async () => ({ unpublished: 0, oldestAgeSeconds: 0 }));
    dbPoolGauge(registry, () => undefined);
    new WebhookAttemptMetrics(registry);
    const families = exposedFamilies(await registry.metrics());
    const unknown = expressions.flatMap(({ where, expr }) => metricNamesIn(expr).filter((name) => !isExposed(name, families)).map((name) => `${where}: ${name}`));
    expect(unknown).toEqual([]);
  });

  it('finds metric names in PromQL and nothing else', () => {
    expect(metricNamesIn('histogram_quantile(0.99, sum by (le, route) (rate(http_request_duration_seconds_bucket{namespace=~"$namespace"}[5m])))')).toEqual([
      'http_request_duration_seconds_bucket',
    ]);
    expect(metricNamesIn('sum(rate(a_total{status=~"5.."}[5m])) / clamp_min(sum(rate(a_total[5m])), 1e-9) > 0.02')).toEqual(['a_total']);
    expect(metricNamesIn('max by (pod) ((db_pool_connections{state="total"} - db_pool_connections{state="idle"}) / clamp_min(db_pool_connections{state="max"}, 1))')).toEqual([
      'db_pool_connections',
    ]);
  });
});
