import type { Config } from '../config.ts';
import type { Metrics } from './metrics.ts';
import type { Tracing } from './tracing.ts';

/** What an operator turned on: Prometheus metrics, OpenTelemetry traces, either or both. */
export interface Observability {
  metrics?: Metrics;
  tracing?: Tracing;
}

/**
 * Loads only what the settings turn on. With neither METRICS_PORT nor an OTLP endpoint nothing is
 * imported: no metrics client, no OpenTelemetry package, no hook on any request.
 */
export async function loadObservability(config: Pick<Config, 'metrics' | 'tracing'>): Promise<Observability> {
  const observability: Observability = {};
  if (config.metrics) observability.metrics = new (await import('./metrics.ts')).Metrics(config.metrics);
  if (config.tracing) observability.tracing = new (await import('./tracing.ts')).Tracing(config.tracing);
  return observability;
}
