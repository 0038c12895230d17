import { JsonValue } from '../../outcome/json-value';
import { HeartbeatProgress } from '../../providers/tool-invocation';

/** Longest progress message kept, in characters. */
export const MAX_PROGRESS_MESSAGE_CHARS = 500;

/**
 * Makes progress reported by host code safe to store and forward: `fraction` clamped into 0..1
 * (dropped when not a finite number), `message` cut to {@link MAX_PROGRESS_MESSAGE_CHARS},
 * `details` dropped unless it is plain JSON.
 */
export function sanitizeProgress(progress: HeartbeatProgress | undefined): HeartbeatProgress {
  if (typeof progress !== 'object' || progress === null) return {};
  const clean: { fraction?: number; message?: string; details?: JsonValue } = {};
  if (typeof progress.fraction === 'number' && Number.isFinite(progress.fraction))
    clean.fraction = Math.min(1, Math.max(0, progress.fraction));
  if (typeof progress.message === 'string') clean.message = progress.message.slice(0, MAX_PROGRESS_MESSAGE_CHARS);
  if (progress.details !== undefined) {
    const details = toJson(progress.details);
    if (details !== undefined) clean.details = details;
  }
  return clean;
}

/** A JSON copy of a value, or `undefined` when it does not survive `JSON.stringify` (a cycle, a BigInt, a function). */
export function toJson(value: unknown): JsonValue | undefined {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
  } catch {
    return undefined;
  }
}
