import { LlmAgentRunOptions } from '../runner/run-options';
import { LlmAgentEvent } from '../runner/runner-events';
import { loadOtelApi } from './load-otel-api';
import { RunTracker, TrackerShared } from './run-tracker';
import { createTelemetryInstruments } from './telemetry-instruments';
import { TelemetryOptions } from './telemetry-options';

/** The hooks telemetry attaches to a run; a host's own hooks of the same names keep working. */
export type TelemetryRunOptions = Pick<LlmAgentRunOptions, 'onEvent' | 'onToolResult' | 'onToolOutputProjection'>;

/** OpenTelemetry traces and metrics of runs, made by {@link createTelemetry}. */
export interface Telemetry {
  /**
   * Run options that trace one run: `base` with `onEvent`, `onToolResult` and
   * `onToolOutputProjection` wrapped (the host's own are still called first). Use a fresh result per run.
   */
  runOptions<T extends LlmAgentRunOptions>(base?: T): T & TelemetryRunOptions;
  /**
   * Traces one run and ends its spans with an error status when it throws or rejects:
   * `await telemetry.trace(options, (traced) => runner.complete(input, traced))`.
   */
  trace<R, T extends LlmAgentRunOptions>(
    base: T | undefined,
    run: (options: T & TelemetryRunOptions) => Promise<R>,
  ): Promise<R>;
}

/**
 * Traces and measures runs through `@opentelemetry/api` only (loaded now; a no-op until the host
 * registers an SDK): a span per run (`invoke_agent`), per model step (`chat`) and per tool call
 * (`execute_tool`), following the GenAI semantic conventions, with `wuwe.*` contract attributes.
 * Arguments, results and model text are recorded only with `recordContent: true`.
 * @throws MissingDependencyError when `@opentelemetry/api` is not installed.
 */
export function createTelemetry(options: TelemetryOptions = {}): Telemetry {
  const api = loadOtelApi('createTelemetry');
  const shared: TrackerShared = {
    api,
    tracer: options.tracer ?? api.trace.getTracer('wuwe'),
    instruments: createTelemetryInstruments(options.meter ?? api.metrics.getMeter('wuwe')),
    options: { ...options },
  };
  const attach = <T extends LlmAgentRunOptions>(tracker: RunTracker, base: T | undefined): T & TelemetryRunOptions => {
    const host = base ?? ({} as T);
    const { onEvent, onToolResult, onToolOutputProjection } = host;
    // Object.assign, not a spread followed by properties: on Node 20 that literal costs microseconds.
    return Object.assign({}, host, {
      onEvent: (event: LlmAgentEvent) => {
        try {
          onEvent?.(event);
        } finally {
          tracker.onEvent(event);
        }
      },
      onToolResult: (outcome, request) => {
        tracker.onToolResult(outcome, request.descriptor, request.callId, request.turn);
        return onToolResult?.(outcome, request);
      },
      onToolOutputProjection: (report, call) => {
        tracker.onProjection(report, call.callId, call.turn);
        return onToolOutputProjection?.(report, call);
      },
    } satisfies TelemetryRunOptions);
  };
  return {
    runOptions: (base) => attach(new RunTracker(shared), base),
    trace: async (base, run) => {
      const tracker = new RunTracker(shared);
      try {
        return await run(attach(tracker, base));
      } catch (error) {
        tracker.fail(error);
        throw error;
      }
    },
  };
}
