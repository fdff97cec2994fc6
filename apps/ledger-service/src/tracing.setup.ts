import { startTracing } from '@pfs/platform';

// The first import of main.ts: traces (when OTEL_EXPORTER_OTLP_ENDPOINT asks for them) start
// before anything loads the `pg` driver, whose statements then become spans.
startTracing({ service: 'ledger-service' });
