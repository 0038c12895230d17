import { newRunId } from '../../runner/new-run-id';
import { CreateRunOptions, RunLeaseRequest, RunWriteOptions } from '../run-store';
import { AgentRunStatus } from '../agent-run-record';
import { RunStoreError } from '../run-store-error';
import { messageShapeProblem } from '../record-message-shape';
import { MAX_RECORD_DEPTH, nestsDeeperThan } from '../record-shape';
import { ChatMessage } from '../../model/model-types';
import { ORIGIN_KEY, WrittenMessageOrigin } from '../message-origins';
import { checkId, checkStatus, checkTtl } from './value-rules';

/** The rules of runs and their messages that every {@link RunStore} applies the same way. */

/** A run about to be created: its checked id and status and the JSON texts of its data. */
export interface NewRun {
  readonly runId: string;
  readonly status: AgentRunStatus;
  readonly metadataJson: string | null;
  readonly messageTexts: readonly string[];
  /** The lease the run is created with, checked. */
  readonly lease?: RunLeaseRequest;
}

/**
 * Checks the options of {@link RunStore.createRun} and serializes their data, before any write. Throws
 * `record_invalid` for an empty id, an unknown status, data with no JSON form, or a lease without a worker id or a
 * positive duration.
 */
export function checkNewRun(options: CreateRunOptions): NewRun {
  const runId = options.runId ?? newRunId();
  checkId(runId, 'runId');
  const status = options.status ?? 'running';
  checkStatus(status);
  const metadataJson =
    options.metadata === undefined ? null : serializeJson(runId, [options.metadata], 'metadata object')[0];
  const messageTexts = serializeMessages(runId, options.messages ?? [], 'other');
  const lease = options.lease === undefined ? undefined : checkLeaseRequest(options.lease);
  return { runId, status, metadataJson, messageTexts, ...(lease === undefined ? {} : { lease }) };
}

/** A lease request as a store may take it: its worker id and duration checked (`record_invalid`), copied. */
function checkLeaseRequest(lease: RunLeaseRequest): RunLeaseRequest {
  if (typeof lease !== 'object' || lease === null)
    throw new RunStoreError('record_invalid', 'lease must be an object with workerId and ttlMs');
  const { workerId, ttlMs } = lease;
  checkId(workerId, 'workerId');
  checkTtl(ttlMs);
  return { workerId, ttlMs };
}

/**
 * Throws `lease_held` when a write carries a fencing token that is not the run's current one: another worker
 * acquired the lease since. A write without a token is not fenced.
 */
export function checkFence(runId: string, currentToken: number | string, options: RunWriteOptions | undefined): void {
  const token = options?.fencingToken;
  if (token !== undefined && Number(currentToken) !== token) {
    throw new RunStoreError(
      'lease_held',
      `The lease of this run was taken over (fencing token ${token} is not the current ${String(currentToken)}); nothing was written`,
      { runId },
    );
  }
}

/**
 * The JSON texts of messages (or any host JSON). Throws `record_invalid` for a value with no JSON form, a message
 * of a shape a load refuses (`messageShapeProblem`), or a value nested deeper than a record may be
 * ({@link MAX_RECORD_DEPTH}): a store never writes what it would refuse to load. What is checked is the JSON value
 * the text holds (read back from it), so a `toJSON` or a getter cannot show the check one message and the store
 * another.
 */
export function serializeJson(runId: string, values: readonly unknown[], what: string): string[] {
  return values.map((value) => {
    const { text, plain } = plainJson(runId, value, what);
    checkWritable(runId, plain, what);
    return text;
  });
}

/**
 * The JSON texts of messages, each carrying its origin (see {@link ORIGIN_KEY}): `origin`, or the origin `origins`
 * gives it (one per message). The origin is set on the message's plain JSON value, after any `toJSON` ran: a
 * message cannot carry an origin of its own (a caller's message claiming to be a model response). Throws
 * `record_invalid` as {@link serializeJson} does, and for `origins` that are not one `model` or `other` per message.
 */
export function serializeMessages(
  runId: string,
  messages: readonly ChatMessage[],
  origin: WrittenMessageOrigin,
  origins?: readonly WrittenMessageOrigin[],
): string[] {
  if (origins !== undefined) checkOrigins(runId, messages.length, origins);
  return messages.map((message, index) => {
    const { plain } = plainJson(runId, message, 'message');
    checkWritable(runId, plain, 'message');
    return JSON.stringify({ ...(plain as object), [ORIGIN_KEY]: origins === undefined ? origin : origins[index] });
  });
}

/** `value`'s JSON text, and the plain JSON value that text holds (any `toJSON` and getter run once, here). */
function plainJson(runId: string, value: unknown, what: string): { readonly text: string; readonly plain: unknown } {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new RunStoreError('record_invalid', `A ${what} is not JSON-serializable: ${(error as Error).message}`, {
      runId,
      cause: error,
    });
  }
  if (typeof text !== 'string') throw new RunStoreError('record_invalid', `A ${what} has no JSON form`, { runId });
  return { text, plain: JSON.parse(text) as unknown };
}

/** Throws `record_invalid` unless a load accepts `plain`: a message of a known shape, nested no deeper than allowed. */
function checkWritable(runId: string, plain: unknown, what: string): void {
  const problem = what === 'message' ? messageShapeProblem(plain) : undefined;
  if (problem !== undefined) throw new RunStoreError('record_invalid', `A message is malformed: ${problem}`, { runId });
  if (nestsDeeperThan(plain, MAX_RECORD_DEPTH - 2))
    throw new RunStoreError(
      'record_invalid',
      `A ${what} nests deeper than the ${MAX_RECORD_DEPTH} levels a record may have`,
      {
        runId,
      },
    );
}

/** `origins` is a list of one written origin per message. Throws `record_invalid`. */
function checkOrigins(runId: string, count: number, origins: unknown): void {
  if (!Array.isArray(origins) || origins.length !== count)
    throw new RunStoreError('record_invalid', `origins must list one origin per message (${count})`, { runId });
  for (let index = 0; index < count; index += 1) {
    const origin: unknown = origins[index];
    if (origin !== 'model' && origin !== 'other')
      throw new RunStoreError(
        'record_invalid',
        `origins[${index}] must be 'model' or 'other', got ${JSON.stringify(origin) ?? String(origin)}`,
        { runId },
      );
  }
}
