import { SIDE_EFFECT_ORDER } from '../../contract/contract-order';
import { descriptorFromLlmTool } from '../../contract/compile-descriptor';
import { JsonSchema } from '../../contract/json-schema';
import { ToolDescriptor, ToolSideEffect } from '../../contract/tool-descriptor';
import { JOB_SNAPSHOT_SCHEMA } from './job-snapshot-schema';
import { JobDefinition } from './job-types';

/** Names of the execution tools. */
export const EXECUTION_TOOL_NAMES = Object.freeze({
  start: 'job_start',
  status: 'job_status',
  result: 'job_result',
  cancel: 'job_cancel',
  run: 'job_run',
});

/** Settings the execution tool descriptors are built from. */
export interface ExecutionToolSettings {
  readonly kinds: ReadonlyMap<string, JobDefinition>;
  /** Longest wait of `job_result`. */
  readonly maxWaitMs: number;
  /** Deadline of one `job_run` call. */
  readonly runTimeoutMs: number;
  /** Longest silence between heartbeats of a `job_run` call. */
  readonly heartbeatIdleTimeoutMs: number;
  /** Longest wait of `job_cancel` for the handler to stop. */
  readonly cancelGraceMs: number;
}

const JOB_ID = { type: 'string', minLength: 1, maxLength: 128, description: 'Id returned by job_start.' };

/** Builds the five execution tool descriptors for the registered kinds. */
export function executionToolDescriptors(settings: ExecutionToolSettings): ToolDescriptor[] {
  const sideEffect = strongestSideEffect(settings.kinds);
  const kindsText = describeKinds(settings.kinds);
  const jobInput: JsonSchema = {
    type: 'object',
    properties: {
      kind:
        settings.kinds.size > 0
          ? { type: 'string', enum: [...settings.kinds.keys()], description: 'Kind of job.' }
          : { type: 'string' },
      input: { description: 'Input of the job; its shape depends on the kind.' },
    },
    required: ['kind', 'input'],
    additionalProperties: false,
  };
  const byId: JsonSchema = {
    type: 'object',
    properties: { jobId: JOB_ID },
    required: ['jobId'],
    additionalProperties: false,
  };
  const output = { outputSchema: JOB_SNAPSHOT_SCHEMA };
  const describedTool = (name: string, description: string, inputSchema: JsonSchema) => ({
    name,
    description,
    inputSchema,
  });
  return [
    descriptorFromLlmTool(
      describedTool(
        EXECUTION_TOOL_NAMES.start,
        `Start a long-running job in the background and return its job id at once.${kindsText}`,
        jobInput,
      ),
      { ...output, sideEffect, idempotency: 'idempotent_with_key', timeoutMs: 10_000 },
    ),
    descriptorFromLlmTool(
      describedTool(EXECUTION_TOOL_NAMES.status, 'Get the status and last progress of a job.', byId),
      {
        ...output,
        sideEffect: 'read',
        idempotency: 'idempotent',
        approval: 'never',
        timeoutMs: 5_000,
      },
    ),
    descriptorFromLlmTool(
      describedTool(
        EXECUTION_TOOL_NAMES.result,
        `Get a job's result, waiting up to waitMs (at most ${settings.maxWaitMs}) for it to finish.`,
        {
          type: 'object',
          properties: {
            jobId: JOB_ID,
            waitMs: {
              type: 'integer',
              minimum: 0,
              maximum: settings.maxWaitMs,
              description: 'How long to wait (default 0).',
            },
          },
          required: ['jobId'],
          additionalProperties: false,
        },
      ),
      {
        ...output,
        sideEffect: 'read',
        idempotency: 'idempotent',
        approval: 'never',
        timeoutMs: settings.maxWaitMs + 5_000,
      },
    ),
    descriptorFromLlmTool(
      describedTool(
        EXECUTION_TOOL_NAMES.cancel,
        'Cancel a running job. Cancelling a finished job changes nothing.',
        byId,
      ),
      {
        ...output,
        sideEffect: 'write',
        idempotency: 'idempotent',
        approval: 'never',
        timeoutMs: settings.cancelGraceMs + 5_000,
      },
    ),
    descriptorFromLlmTool(
      describedTool(
        EXECUTION_TOOL_NAMES.run,
        `Run a job to completion within this call, reporting progress, and return its result.${kindsText}`,
        jobInput,
      ),
      {
        ...output,
        sideEffect,
        timeoutMs: settings.runTimeoutMs,
        heartbeat: { idleTimeoutMs: settings.heartbeatIdleTimeoutMs },
      },
    ),
  ];
}

/**
 * The strongest side effect of the registered kinds (`write` for a kind that does not say); `none` when there are no
 * kinds.
 */
export function strongestSideEffect(kinds: ReadonlyMap<string, JobDefinition>): ToolSideEffect {
  let strongest = 0;
  for (const definition of kinds.values())
    strongest = Math.max(strongest, SIDE_EFFECT_ORDER.indexOf(definition.sideEffect ?? 'write'));
  return SIDE_EFFECT_ORDER[strongest];
}

function describeKinds(kinds: ReadonlyMap<string, JobDefinition>): string {
  if (kinds.size === 0) return ' No job kinds are registered.';
  const lines = [...kinds].map(
    ([kind, definition]) => `- ${kind}${definition.description === undefined ? '' : `: ${definition.description}`}`,
  );
  return `\nKinds:\n${lines.join('\n')}`;
}
