import { messageOf } from '../errors/message-of';
import { renderToolMessage } from '../outcome/render-tool-message';
import { ToolOutcome } from '../outcome/tool-outcome';
import { estimateLargeTextTokens } from './fallback-text-token-estimator';
import { renderArrayInParts } from './render-array-in-parts';
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
 * Renders `outcome` and measures it for a byte ceiling of `maxBytes`. Structured data that is an
 * array of many items is rendered in parts (see `renderArrayInParts`): same size, same text, same
 * sampled tokens, without one large string to flatten. Anything else is rendered whole. Throws a
 * {@link ToolOutputProjectionError} of kind `serialization` when the outcome cannot be rendered.
 * @internal
 */
export function measureOriginal(outcome: ToolOutcome, maxBytes: number): MeasuredOriginal {
  if (typeof outcome !== 'object' || outcome === null)
    throw new ToolOutputProjectionError('serialization', `expected a tool outcome object, got ${outcome === null ? 'null' : typeof outcome}`);
  const parted = dataInParts(outcome, maxBytes);
  if (parted !== undefined) return parted;
  const text = render(outcome);
  const bytes = Buffer.byteLength(text, 'utf8');
  return { length: text.length, bytes, text, head: () => text, sampledTokens: bytes > maxBytes ? estimateLargeTextTokens(text) : 0 };
}

/** The parts rendering of a success's data, or `undefined` when it does not apply (or the outcome misbehaves: then it is rendered whole). */
function dataInParts(outcome: ToolOutcome, maxBytes: number): MeasuredOriginal | undefined {
  try {
    return outcome.ok && Array.isArray(outcome.data) ? renderArrayInParts(outcome.data, maxBytes) : undefined;
  } catch {
    return undefined;
  }
}

function render(outcome: ToolOutcome): string {
  let rendered: unknown;
  try {
    rendered = renderToolMessage(outcome);
  } catch (cause) {
    throw new ToolOutputProjectionError('serialization', `the outcome could not be rendered as a Tool message: ${messageOf(cause)}`, { cause });
  }
  if (typeof rendered !== 'string')
    throw new ToolOutputProjectionError('serialization', `the outcome rendered as ${typeof rendered}, not as text (data that JSON cannot represent?)`);
  return rendered;
}
