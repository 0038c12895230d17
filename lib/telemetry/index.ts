/**
 * wuwe/telemetry: OpenTelemetry traces and metrics of runs, following the GenAI semantic
 * conventions. Needs the optional peer `@opentelemetry/api`, loaded on first use.
 * @packageDocumentation
 */
export { createTelemetry } from './create-telemetry';
export type { Telemetry, TelemetryRunOptions } from './create-telemetry';
export type { TelemetryOptions } from './telemetry-options';
export { TELEMETRY_NAMES, TELEMETRY_EVENTS, TELEMETRY_METRICS } from './telemetry-attributes';
export { OTEL_API_PACKAGE } from './load-otel-api';
