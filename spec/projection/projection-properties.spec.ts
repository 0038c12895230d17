import fc from 'fast-check';
import {
  checkToolOutputProjectionPolicy,
  fallbackTextTokenEstimator,
  TextTokenEstimator,
  tryProjectToolOutputForModel,
} from '../../lib/projection';
import {
  JsonValue,
  STANDARD_TOOL_ERROR_CODES,
  TOOL_ERROR_CATEGORIES,
  ToolOutcome,
  toolData,
  toolFailure,
  toolText,
} from '../../lib';
import { renderToolMessage } from '../../lib/tools';
import { ToolOutputProjectionPolicy } from '../../lib/contract';

/** One token per two UTF-16 units: a second, denser estimator. */
const perTwoUnits: TextTokenEstimator = { estimateTokens: (text) => Math.ceil(text.length / 2) };

const piece = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom('漢字', 'かな', '한국어', '中文文本') },
  { weight: 2, arbitrary: fc.constantFrom('😀', '👍🏽', '👨‍👩‍👧', '🇯🇵') },
  { weight: 1, arbitrary: fc.constantFrom('e\u0301', 'a\u0308\u0323', 'ж', 'é') },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)) },
  { weight: 1, arbitrary: fc.constantFrom('\n', '\t', '"', '\\', '\u0000') },
);
const text = fc.oneof(
  fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join('')),
  fc.array(piece, { minLength: 50, maxLength: 1_500, size: 'max' }).map((pieces) => pieces.join('')),
);

const estimator = fc.constantFrom(fallbackTextTokenEstimator, perTwoUnits);

const policy = fc.record({
  maxBytes: fc.integer({ min: 256, max: 4_000 }),
  maxTokens: fc.integer({ min: 128, max: 1_500 }),
});

function usable(candidate: ToolOutputProjectionPolicy, tokens: TextTokenEstimator): boolean {
  try {
    checkToolOutputProjectionPolicy(candidate, tokens);
    return true;
  } catch {
    return false;
  }
}

/** How many projections truncated, so each property proves it exercised the truncation path. */
let truncatedRuns = 0;

beforeEach(() => {
  truncatedRuns = 0;
});

function checkCeilings(outcome: ToolOutcome, limits: ToolOutputProjectionPolicy, tokens: TextTokenEstimator): string {
  const result = tryProjectToolOutputForModel(outcome, { policy: limits, estimator: tokens });
  if (!result.ok) throw new Error(`${result.error.kind}: ${result.error.message}`);
  const { content, report } = result;
  const bytes = Buffer.byteLength(content);
  expect(bytes).toBeLessThanOrEqual(limits.maxBytes);
  expect(tokens.estimateTokens(content)).toBeLessThanOrEqual(limits.maxTokens);
  expect(report.projectedBytes).toBe(bytes);
  const rendered = renderToolMessage(outcome);
  const fits = Buffer.byteLength(rendered) <= limits.maxBytes && tokens.estimateTokens(rendered) <= limits.maxTokens;
  expect(report.truncated).toBe(!fits);
  if (fits) expect(content).toBe(rendered);
  else truncatedRuns++;
  return content;
}

const jsonValue = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<JsonValue>;

describe('projection properties', () => {
  it('plain text: ceilings hold, head and tail come from the original, output is well-formed', () => {
    fc.assert(
      fc.property(text, policy, estimator, (original, limits, tokens) => {
        fc.pre(usable(limits, tokens));
        const content = checkCeilings(toolText(original), limits, tokens);
        if (content === original) return;
        const match =
          /^\[Tool output truncated[^\n]*\n([\s\S]*)\n\[\.\.\. (\d+) bytes omitted \.\.\.\]\n([\s\S]*)$/.exec(content);
        expect(match).not.toBeNull();
        const [, head, omitted, tail] = match!;
        const wellFormed = original.toWellFormed();
        expect(wellFormed.startsWith(head)).toBe(true);
        expect(wellFormed.endsWith(tail)).toBe(true);
        expect(Number(omitted)).toBe(Buffer.byteLength(original) - Buffer.byteLength(head) - Buffer.byteLength(tail));
        expect(content.isWellFormed()).toBe(true);
      }),
      { numRuns: 300 },
    );
    expect(truncatedRuns).toBeGreaterThan(50);
  });

  it('structured success: ceilings hold and the content is always valid JSON', () => {
    const data = fc.oneof(
      jsonValue,
      fc.array(jsonValue, { maxLength: 400, size: 'max' }),
      fc.dictionary(fc.string(), jsonValue, { maxKeys: 200, size: 'max' }),
      text,
    );
    fc.assert(
      fc.property(data, policy, estimator, (value, limits, tokens) => {
        fc.pre(usable(limits, tokens));
        const content = checkCeilings(toolData(value), limits, tokens);
        const parsed = JSON.parse(content);
        if (content !== JSON.stringify(value)) {
          expect(parsed.truncated).toBe(true);
          if (Array.isArray(parsed.items))
            expect(parsed.items).toEqual(JSON.parse(JSON.stringify(value)).slice(0, parsed.shownItems));
          else expect(JSON.stringify(value).toWellFormed().startsWith(parsed.preview)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
    expect(truncatedRuns).toBeGreaterThan(50);
  });

  it('failures: ceilings hold, JSON parses, code, category and retryable are kept', () => {
    const code = fc.oneof(
      fc.constantFrom(...Object.keys(STANDARD_TOOL_ERROR_CODES)),
      fc.stringMatching(/^[a-z_]{1,20}$/),
    );
    const failure = fc.record({
      code,
      category: fc.constantFrom(...TOOL_ERROR_CATEGORIES),
      retryable: fc.boolean(),
      message: text,
      details: fc.option(jsonValue, { nil: undefined }),
    });
    fc.assert(
      fc.property(failure, policy, estimator, (options, limits, tokens) => {
        fc.pre(usable(limits, tokens));
        const content = checkCeilings(toolFailure(options), limits, tokens);
        const parsed = JSON.parse(content);
        expect(parsed.ok).toBe(false);
        expect(parsed.error.code).toBe(options.code);
        expect(parsed.error.category).toBe(options.category);
        expect(parsed.error.retryable).toBe(options.retryable);
      }),
      { numRuns: 300 },
    );
    expect(truncatedRuns).toBeGreaterThan(50);
  });

  it('small outputs pass through unchanged', () => {
    const outcome = fc.oneof(
      text.map((value) => toolText(value.slice(0, 40))),
      fc
        .jsonValue({ maxDepth: 1 })
        .filter((value) => JSON.stringify(value).length < 40)
        .map((value) => toolData(value as JsonValue)),
    );
    fc.assert(
      fc.property(outcome, (value) => {
        // 40 UTF-16 units are at most 120 UTF-8 bytes, which the fallback counts as at most 122 tokens.
        const result = tryProjectToolOutputForModel(value, { policy: { maxBytes: 256, maxTokens: 128 } });
        expect(result.ok && result.content).toBe(renderToolMessage(value));
        expect(result.ok && result.report.truncated).toBe(false);
      }),
    );
  });
});
