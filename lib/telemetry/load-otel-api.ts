import type * as OtelApi from '@opentelemetry/api';
import { loadOptionalDependency } from '../errors/optional-dependency';

/** The optional peer package wuwe/telemetry talks to. */
export const OTEL_API_PACKAGE = '@opentelemetry/api';

/**
 * Loads `@opentelemetry/api` on first use.
 * @throws MissingDependencyError when it is not installed.
 */
export function loadOtelApi(feature: string): typeof OtelApi {
  return loadOptionalDependency<typeof OtelApi>(OTEL_API_PACKAGE, feature);
}
