import type { Counter, Histogram, Meter } from '@opentelemetry/api';
import { TELEMETRY_METRICS } from './telemetry-attributes';

/** The metric instruments of wuwe/telemetry, created once per {@link createTelemetry}. */
export interface TelemetryInstruments {
  /** Duration of a tool call, seconds, by `gen_ai.tool.name` and `error.type`. */
  readonly toolDuration: Histogram;
  /** Retries of tool calls, by `gen_ai.tool.name` and `error.type` of the failed attempt. */
  readonly retries: Counter;
  /** Attempts given up at their deadline or heartbeat limit, by `gen_ai.tool.name` and `wuwe.timeout.limit`. */
  readonly timeouts: Counter;
  /** Tool outputs cut to fit the model's ceilings, by `gen_ai.tool.name`. */
  readonly truncations: Counter;
  /** Model tokens, by `gen_ai.token.type` (`input` / `output`) and `gen_ai.response.model`. */
  readonly tokens: Counter;
  /**
   * Events of a call that came after its span ended (a result discarded after a timeout or an abort,
   * a heartbeat of a tool that ignored its signal), on no span, by `wuwe.event` and `gen_ai.tool.name`.
   */
  readonly lateEvents: Counter;
}

/** Creates the instruments on `meter`. */
export function createTelemetryInstruments(meter: Meter): TelemetryInstruments {
  return {
    toolDuration: meter.createHistogram(TELEMETRY_METRICS.toolDuration, {
      unit: 's',
      description: 'Duration of wuwe tool calls, all attempts included',
    }),
    retries: meter.createCounter(TELEMETRY_METRICS.retries, {
      unit: '{retry}',
      description: 'Retries of wuwe tool calls',
    }),
    timeouts: meter.createCounter(TELEMETRY_METRICS.timeouts, {
      unit: '{timeout}',
      description: 'Tool attempts given up at a deadline or heartbeat limit',
    }),
    truncations: meter.createCounter(TELEMETRY_METRICS.truncations, {
      unit: '{truncation}',
      description: 'Tool outputs truncated for the model',
    }),
    tokens: meter.createCounter(TELEMETRY_METRICS.tokens, {
      unit: '{token}',
      description: 'Model tokens used by wuwe runs',
    }),
    lateEvents: meter.createCounter(TELEMETRY_METRICS.lateEvents, {
      unit: '{event}',
      description: 'Tool call events that came after the call span ended',
    }),
  };
}
