import { ToolOutputProjectionPolicy } from '../contract/tool-descriptor';
import type { ToolImageProjectionReport } from './project-tool-images';
import { TextTokenEstimator } from './text-token-estimator';

/**
 * Why a projection failed:
 * - `invalid_policy`: a ceiling is not an integer, not finite, or below 256 bytes / 128 tokens;
 * - `envelope`: even the smallest truncation envelope of this outcome does not fit (e.g. a failure
 *   whose `code` alone is larger than the byte ceiling);
 * - `estimator`: the estimator threw, or returned `NaN`, a non-finite or a negative number;
 * - `serialization`: the outcome could not be rendered (`data` with a BigInt or a cycle, or not an outcome).
 */
export type ToolOutputProjectionFailureKind = 'invalid_policy' | 'envelope' | 'estimator' | 'serialization';

/** Which ceiling made a projection cut the output; `null` when nothing was cut. */
export type ToolOutputProjectionTrigger = 'bytes' | 'tokens' | 'both' | null;

/** What a projection did. Bytes are exact UTF-8 bytes; tokens come from the estimator. */
export interface ToolOutputProjectionReport {
  /** True when the content differs from the rendered Tool message. */
  readonly truncated: boolean;
  /** UTF-8 bytes of the rendered Tool message. */
  readonly originalBytes: number;
  /** Estimated tokens of the rendered Tool message. */
  readonly originalTokens: number;
  /** UTF-8 bytes of `content`. */
  readonly projectedBytes: number;
  /** Estimated tokens of `content`. */
  readonly projectedTokens: number;
  /** The byte ceiling applied. */
  readonly maxBytes: number;
  /** The token ceiling applied. */
  readonly maxTokens: number;
  /** The ceiling(s) the original exceeded, or `null` when it fit. */
  readonly trigger: ToolOutputProjectionTrigger;
  /** What became of the outcome's images (sent, omitted and why); only for an outcome with images. */
  readonly images?: ToolImageProjectionReport;
}

/** The model-facing content and its report. */
export interface ToolOutputProjection {
  /** The Tool message payload to send to the model, within both ceilings. */
  readonly content: string;
  /** What the projection did. */
  readonly report: ToolOutputProjectionReport;
}

/** A projection failure, as data. */
export interface ToolOutputProjectionFailure {
  /** Which step failed. */
  readonly kind: ToolOutputProjectionFailureKind;
  /** A sentence saying what went wrong. */
  readonly message: string;
}

/** The result of `tryProjectToolOutputForModel`: never thrown, always returned. */
export type ToolOutputProjectionResult =
  ({ readonly ok: true } & ToolOutputProjection) | { readonly ok: false; readonly error: ToolOutputProjectionFailure };

/** Options of the projection functions. */
export interface ToolOutputProjectionOptions {
  /**
   * The effective ceilings, usually `effectiveToolOutputProjection(runPolicy, descriptor.modelOutputProjection)`
   * or {@link DEFAULT_TOOL_OUTPUT_PROJECTION}.
   */
  readonly policy: ToolOutputProjectionPolicy;
  /** Token estimator. @default fallbackTextTokenEstimator */
  readonly estimator?: TextTokenEstimator;
}
