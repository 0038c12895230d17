import type { Meter, Tracer } from '@opentelemetry/api';

/** Options of {@link createTelemetry}. */
export interface TelemetryOptions {
  /** @default the global tracer `wuwe` of `@opentelemetry/api` (a no-op until the host registers an SDK) */
  readonly tracer?: Tracer;
  /** @default the global meter `wuwe` of `@opentelemetry/api` (a no-op until the host registers an SDK) */
  readonly meter?: Meter;
  /**
   * Record tool arguments and results (`gen_ai.tool.call.arguments` / `.result`) and model answers
   * (`gen_ai.output.messages`). They may hold personal data or secrets, so they are off unless the host opts in.
   * @default false
   */
  readonly recordContent?: boolean;
  /** `gen_ai.agent.name` of the run spans. @default none */
  readonly agentName?: string;
  /** `gen_ai.request.model` of the chat spans; without it the answering model is used. @default none */
  readonly requestModel?: string;
  /** `gen_ai.provider.name` of the chat spans, e.g. `anthropic`. @default none */
  readonly providerName?: string;
}
