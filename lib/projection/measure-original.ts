import { messageOf } from '../errors/message-of';
import { renderToolMessage } from '../outcome/render-tool-message';
import { ToolOutcome } from '../outcome/tool-outcome';
import { estimateLargeTextTokens } from './fallback-text-token-estimator';
import { ARRAY_PARTS_LIMITS, renderArrayInParts } from './render-array-in-parts';
import { ToolOutputProjectionError } from './tool-output-projection-error';

/**
 * The rendered Tool message of an outcome (`renderToolMessage`), as much of it as the projection
 * needs: its exact size always, its text only where it may be sent or quoted.
 * @internal
 */
export interface MeasuredOriginal {
  /** UTF-16 code units of the rendered text. */
  readonly length: number;
  /** Exact UTF-8 bytes of the rendered text (what `Buffer.byteLength` counts). */
  readonly bytes: number;
  /**
   * The whole rendered text: always for a text or a failure outcome, and for data whenever
   * `bytes <= maxBytes`; `undefined` for data over `maxBytes` rendered in parts.
   */
  readonly text: string | undefined;
  /**
   * The rendered text, or at least its first `maxBytes + 1` code units (all a preview can quote);
   * joined from parts only when asked.
   */
  head(): string;
  /** Over `maxBytes`: `estimateLargeTextTokens` of the rendered text; else 0 (not computed). */
  readonly sampledTokens: number;
}

/**
 * The parts rendering of a success whose data is an array of at least `ARRAY_PARTS_LIMITS.minItems`
 * items, or `undefined` when it does not apply (or the outcome misbehaves: it is then rendered whole).
 * Answers `undefined` at once for any other outcome, so the usual small result pays one test. @internal
 */
export function measureInParts(outcome: ToolOutcome, maxBytes: number): MeasuredOriginal | undefined {
  if (typeof outcome !== 'object' || outcome === null) return undefined;
  try {
    const data: unknown = outcome.ok ? outcome.data : undefined;
    return Array.isArray(data) && data.length >= ARRAY_PARTS_LIMITS.minItems
      ? renderArrayInParts(data, maxBytes)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The measure of an outcome rendered whole (`text`, of `bytes` UTF-8 bytes). @internal */
export function measuredWhole(text: string, bytes: number, maxBytes: number): MeasuredOriginal {
  return {
    length: text.length,
    bytes,
    text,
    head: () => text,
    sampledTokens: bytes > maxBytes ? estimateLargeTextTokens(text) : 0,
  };
}

/**
 * `renderToolMessage(outcome)`, checked: throws a {@link ToolOutputProjectionError} of kind
 * `serialization` for what is not an outcome object, or cannot be rendered as text. @internal
 */
export function renderWhole(outcome: ToolOutcome): string {
  if (typeof outcome !== 'object' || outcome === null)
    throw new ToolOutputProjectionError(
      'serialization',
      `expected a tool outcome object, got ${outcome === null ? 'null' : typeof outcome}`,
    );
  return render(outcome);
}

function render(outcome: ToolOutcome): string {
  let rendered: unknown;
  try {
    rendered = renderToolMessage(outcome);
  } catch (cause) {
    throw new ToolOutputProjectionError(
      'serialization',
      `the outcome could not be rendered as a Tool message: ${messageOf(cause)}`,
      { cause },
    );
  }
  if (typeof rendered !== 'string')
    throw new ToolOutputProjectionError(
      'serialization',
      `the outcome rendered as ${typeof rendered}, not as text (data that JSON cannot represent?)`,
    );
  return rendered;
}
