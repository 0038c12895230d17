import { ModelToolCall } from '../../model/model-types';
import { toolFailure, ToolOutcome } from '../../outcome/tool-outcome';
import { ToolCallResult } from '../run-result';

/**
 * Runs the calls of one turn concurrently; the results come back in the order of the calls. A call id that
 * repeats within the turn is refused (`duplicate_call_id`, nothing runs) after its first call, whose result
 * alone the id could be bound to. When a call fails the run (a store error, a lost lease), every other call of
 * the turn is still awaited before the error is thrown, so no work of the turn is left running unobserved.
 * @internal
 */
export async function runTurnCalls(
  calls: readonly ModelToolCall[],
  execute: (call: ModelToolCall) => Promise<ToolCallResult>,
  refuse: (call: ModelToolCall, outcome: ToolOutcome) => ToolCallResult,
): Promise<ToolCallResult[]> {
  const ids = new Set<string>();
  const settled = await Promise.allSettled(
    calls.map(async (call) => {
      if (!ids.has(call.id)) {
        ids.add(call.id);
        return await execute(call);
      }
      const message = `another call of this turn already has the id '${call.id}'; this one was not run`;
      return refuse(
        call,
        toolFailure({ code: 'duplicate_call_id', category: 'validation', retryable: false, message }),
      );
    }),
  );
  const records: ToolCallResult[] = [];
  for (const result of settled) {
    if (result.status === 'rejected') throw result.reason;
    records.push(result.value);
  }
  return records;
}
