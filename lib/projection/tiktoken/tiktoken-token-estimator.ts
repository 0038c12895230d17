import type { Tiktoken } from 'js-tiktoken';
import { loadOptionalDependency } from '../../errors/optional-dependency';
import { TextTokenEstimator } from '../text-token-estimator';

/** The `js-tiktoken` encodings {@link TiktokenTokenEstimator} counts with. */
export type TiktokenEncodingName = 'o200k_base' | 'cl100k_base';

type JsTiktoken = typeof import('js-tiktoken');

/**
 * An exact token counter for OpenAI-family models, to pass as `contextTokenEstimator`: it encodes
 * the text with `js-tiktoken` (an optional peer dependency, loaded on first use; without it the
 * first count throws `MissingDependencyError`) and returns the number of tokens. Special-token
 * text such as `<|endoftext|>` in a tool's output is counted as ordinary text, never refused.
 *
 * Cost: encoding is about 1,000 times slower than the fallback estimator on large text, and the
 * first use loads the encoding tables (a few MB, some hundred milliseconds). The projection only
 * asks it to count text within `maxBytes` (what may be sent), at most six times per tool result.
 */
export class TiktokenTokenEstimator implements TextTokenEstimator {
  private encoder: Tiktoken | undefined;

  /** @param encodingName - the encoding of the model the text is sent to. @default 'o200k_base' */
  constructor(readonly encodingName: TiktokenEncodingName = 'o200k_base') {}

  /** The exact number of tokens of `text` in {@link encodingName}. */
  estimateTokens(text: string): number {
    this.encoder ??= loadOptionalDependency<JsTiktoken>('js-tiktoken', 'TiktokenTokenEstimator').getEncoding(
      this.encodingName,
    );
    return this.encoder.encode(text, [], []).length;
  }
}
