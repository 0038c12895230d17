import type { JsonValue } from '../outcome/json-value';
import type { DeadLetter, RunJobData } from './run-queue-types';

/** A dead letter as a row of pg-boss's job table holds it; a row written by hand may hold anything. @internal */
export function deadLetterOfRow(row: Record<string, unknown>): DeadLetter {
  // A dead letter that names no run has runId ''.
  const data = (row.data !== null && typeof row.data === 'object' ? row.data : {}) as Partial<
    Record<keyof RunJobData, unknown>
  >;
  const output = row.output as { value?: JsonValue } | JsonValue | null;
  const lastError =
    output !== null && typeof output === 'object' && !Array.isArray(output) && 'value' in output
      ? (output.value ?? null)
      : (output ?? null);
  return {
    runId: typeof data.runId === 'string' ? data.runId : '',
    agent: typeof data.agent === 'string' ? data.agent : '',
    lastError: lastError,
    deadAt: new Date(row.created_on as string).toISOString(),
  };
}
