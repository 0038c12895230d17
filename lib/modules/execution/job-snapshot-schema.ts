import { JsonSchema } from '../../contract/json-schema';

/** Output schema of the job tools that answer a job's state (see `toJobData`). */
export const JOB_SNAPSHOT_SCHEMA: JsonSchema = Object.freeze({
  type: 'object',
  properties: {
    jobId: { type: 'string' },
    kind: { type: 'string' },
    status: { type: 'string', enum: ['running', 'cancelling', 'succeeded', 'failed', 'cancelled'] },
    progress: {
      type: 'object',
      properties: { fraction: { type: 'number', minimum: 0, maximum: 1 }, message: { type: 'string' }, details: {} },
      additionalProperties: false,
    },
    heartbeats: { type: 'integer', minimum: 0 },
    startedAt: { type: 'string' },
    finishedAt: { type: 'string' },
    result: {},
    error: { type: 'string' },
    reused: { type: 'boolean' },
  },
  required: ['jobId', 'kind', 'status', 'heartbeats', 'startedAt'],
  additionalProperties: false,
});
