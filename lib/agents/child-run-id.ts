import { hash } from 'node:crypto';
import { JsonObject } from '../outcome/json-value';
import { RunStore } from '../durable/run-store';

/** The metadata keys that link a child run to the call of the parent run that started it. */
export const PARENT_RUN_ID = 'parentRunId';
/** See {@link PARENT_RUN_ID}. */
export const PARENT_CALL_ID = 'parentCallId';
/** The name of the agent tool whose call started a child run. */
export const AGENT_NAME = 'agent';

/**
 * The run id of the child run an agent tool's call starts: `<parent run id>/<call id>-<12 hex digits>`, the digits
 * from the call's idempotency key (which holds the parent's turn), so a resume of the parent finds the same child and
 * a model reusing a call id in a later turn gets a new one.
 */
export function childRunIdOf(parentRunId: string, callId: string, idempotencyKey: string): string {
  return `${parentRunId}/${callId}-${hash('sha256', idempotencyKey, 'hex').slice(0, 12)}`;
}

/** True when `metadata` links a run to the call `callId` of the run `parentRunId`. */
export function linksTo(metadata: JsonObject | undefined, parentRunId: string, callId: string): boolean {
  return metadata?.[PARENT_RUN_ID] === parentRunId && metadata[PARENT_CALL_ID] === callId;
}

/**
 * The recorder's hook when a call of a resumed run started before and was never admitted: true when the store holds a
 * child run this call started (its id derived as {@link childRunIdOf}, its metadata linking back). Such a call is an
 * agent tool's: running it again resumes that child, which reuses everything it admitted, so it is safe to repeat
 * whatever the tool's idempotency says. @internal
 */
export async function resumesChildRun(
  store: RunStore,
  parentRunId: string,
  callId: string,
  idempotencyKey: string,
): Promise<boolean> {
  const child = await store.loadRun(childRunIdOf(parentRunId, callId, idempotencyKey));
  return child !== undefined && linksTo(child.metadata, parentRunId, callId);
}
