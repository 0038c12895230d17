import { ToolOutcome } from './tool-outcome';

/**
 * Renders an outcome into the Tool message payload the model sees. Everything model-facing
 * (projection, memory, audit hashes) builds on this one function.
 *
 * - A failure is `{"ok":false,"error":{"code","category","message","retryable"[,"details"]}}`.
 * - A success with `data` is the JSON of `data`.
 * - A text success is its text (an empty string when it has neither).
 *
 * Throws a `TypeError` when `data` cannot be serialized (a BigInt, a cycle).
 */
export function renderToolMessage(outcome: ToolOutcome): string {
  if (!outcome.ok) return JSON.stringify(renderableFailure(outcome));
  if (outcome.data !== undefined) return JSON.stringify(outcome.data);
  return outcome.text ?? '';
}

/** The exact object a failure renders as, in a fixed key order. */
export function renderableFailure(outcome: ToolOutcome): { ok: false; error: Record<string, unknown> } {
  const error = outcome.error ?? {
    code: 'tool_error',
    category: 'internal',
    message: 'failure without error',
    retryable: false,
  };
  const rendered: Record<string, unknown> = {
    code: error.code,
    category: error.category,
    message: error.message,
    retryable: error.retryable,
  };
  if (error.details !== undefined) rendered.details = error.details;
  return { ok: false, error: rendered };
}
