import {
  BasicTracerProvider,
  InMemorySpanExporter,
  ReadableSpan,
  Sampler,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { createTelemetry, Telemetry, TelemetryOptions } from '../../lib/telemetry';

/** A telemetry wired to the SDK's in-memory span exporter and an in-memory metric exporter. */
export interface TelemetryHarness {
  readonly telemetry: Telemetry;
  spans(): ReadableSpan[];
  span(name: string): ReadableSpan;
  metrics(): Promise<Map<string, { value: number; attributes: Record<string, unknown> }[]>>;
  shutdown(): Promise<void>;
}

/**
 * Builds a harness; `options` go to `createTelemetry` with the SDK's tracer and meter; `sampler` to the tracer
 * provider.
 */
export function telemetryHarness(
  options: Omit<TelemetryOptions, 'tracer' | 'meter'> = {},
  sampler?: Sampler,
): TelemetryHarness {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    ...(sampler === undefined ? {} : { sampler }),
  });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry = createTelemetry({
    ...options,
    tracer: tracerProvider.getTracer('test'),
    meter: meterProvider.getMeter('test'),
  });
  const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
  return {
    telemetry,
    spans,
    span: (name) => {
      const found = spans().filter((span) => span.name === name);
      if (found.length !== 1)
        throw new Error(
          `expected one span '${name}', found ${found.length}: ${spans()
            .map((s) => s.name)
            .join(', ')}`,
        );
      return found[0];
    },
    metrics: async () => {
      await reader.forceFlush();
      const exported: ResourceMetrics[] = metricExporter.getMetrics();
      const latest = exported.at(-1);
      const byName = new Map<string, { value: number; attributes: Record<string, unknown> }[]>();
      for (const scope of latest?.scopeMetrics ?? [])
        for (const metric of scope.metrics)
          byName.set(
            metric.descriptor.name,
            metric.dataPoints.map((point) => ({
              value: typeof point.value === 'number' ? point.value : (point.value as { count: number }).count,
              attributes: { ...point.attributes },
            })),
          );
      return byName;
    },
    shutdown: async () => {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
    },
  };
}
