import {
  DEFAULT_TOOL_OUTPUT_PROJECTION,
  FallbackTextTokenEstimator,
  fallbackTextTokenEstimator,
  projectToolOutputForModel,
  TextTokenEstimator,
  ToolOutputProjectionError,
  ToolOutputProjectionFailure,
  ToolOutputProjectionOptions,
  tryProjectToolOutputForModel,
} from '../../lib/projection';
import { JsonValue, ToolOutcome, toolData, toolFailure, toolText, WuweError } from '../../lib';
import { renderToolMessage } from '../../lib/tools';

const small = { maxBytes: 1_024, maxTokens: 256 };

function project(outcome: ToolOutcome, options: ToolOutputProjectionOptions = { policy: small }) {
  const result = tryProjectToolOutputForModel(outcome, options);
  if (!result.ok) throw new Error(`unexpected failure: ${result.error.kind}: ${result.error.message}`);
  return result;
}

function failureOf(outcome: ToolOutcome, options: ToolOutputProjectionOptions): ToolOutputProjectionFailure {
  const result = tryProjectToolOutputForModel(outcome, options);
  if (result.ok) throw new Error('expected a failure');
  return result.error;
}

function expectWithinCeilings(content: string, policy = small): void {
  expect(Buffer.byteLength(content)).toBeLessThanOrEqual(policy.maxBytes);
  expect(fallbackTextTokenEstimator.estimateTokens(content)).toBeLessThanOrEqual(policy.maxTokens);
}

describe('tryProjectToolOutputForModel: output under both ceilings', () => {
  it.each([
    ['text', toolText('Tokyo is 22 degrees.')],
    ['empty text', toolText('')],
    ['structured data', toolData({ temperature: 22, city: 'Tokyo', tags: ['warm', '晴れ'] })],
    [
      'a failure with details',
      toolFailure({ code: 'invalid_arguments', message: 'bad', details: { issues: [{ pointer: '/city' }] } }),
    ],
  ])('passes %s through byte for byte', (_name, outcome) => {
    const { content, report } = project(outcome);
    expect(content).toBe(renderToolMessage(outcome));
    const bytes = Buffer.byteLength(content);
    const tokens = fallbackTextTokenEstimator.estimateTokens(content);
    expect(report).toEqual({
      truncated: false,
      originalBytes: bytes,
      originalTokens: tokens,
      projectedBytes: bytes,
      projectedTokens: tokens,
      maxBytes: small.maxBytes,
      maxTokens: small.maxTokens,
      trigger: null,
    });
  });

  it('passes output of exactly the byte ceiling through', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(23).slice(0, 1_024);
    const policy = { maxBytes: 1_024, maxTokens: 512 };
    expect(fallbackTextTokenEstimator.estimateTokens(text)).toBeLessThanOrEqual(policy.maxTokens);
    expect(project(toolText(text), { policy }).content).toBe(text);
  });
});

describe('tryProjectToolOutputForModel: plain text', () => {
  it('warns with the original size and shows a head and a tail', () => {
    const text = Array.from({ length: 2_000 }, (_, index) => `line ${index}`).join('\n');
    const { content, report } = project(toolText(text));
    expectWithinCeilings(content);
    const bytes = Buffer.byteLength(text);
    expect(
      content.startsWith(
        `[Tool output truncated for the model: the original was ${bytes} bytes (about ${report.originalTokens} estimated tokens)`,
      ),
    ).toBe(true);
    const [, head, omitted, tail] = /^[^\n]*\n([\s\S]*)\n\[\.\.\. (\d+) bytes omitted \.\.\.\]\n([\s\S]*)$/.exec(
      content,
    )!;
    expect(text.startsWith(head)).toBe(true);
    expect(text.endsWith(tail)).toBe(true);
    expect(head.length).toBeGreaterThan(100);
    expect(tail.length).toBeGreaterThan(100);
    expect(Number(omitted)).toBe(bytes - Buffer.byteLength(head) - Buffer.byteLength(tail));
    expect(report).toMatchObject({
      truncated: true,
      originalBytes: bytes,
      projectedBytes: Buffer.byteLength(content),
      trigger: 'both',
    });
    expect(report.projectedTokens).toBe(fallbackTextTokenEstimator.estimateTokens(content));
  });

  it('reports which ceiling triggered', () => {
    const wide = { policy: { maxBytes: 65_536, maxTokens: 200 } };
    expect(project(toolText('漢'.repeat(300)), wide).report.trigger).toBe('tokens');
    expect(
      project(toolText('a'.repeat(2_000)), { policy: { maxBytes: 1_000, maxTokens: 10_000 } }).report.trigger,
    ).toBe('bytes');
    expect(project(toolText('a'.repeat(20_000))).report.trigger).toBe('both');
  });

  it('fits the token ceiling when only tokens are over', () => {
    const policy = { maxBytes: 65_536, maxTokens: 200 };
    const { content } = project(toolText('漢字'.repeat(500)), { policy });
    expectWithinCeilings(content, policy);
    expect(content).toContain('漢字漢');
  });

  it('never splits a surrogate pair or a UTF-8 sequence', () => {
    for (const unit of ['😀', '漢', 'é', 'a😀', 'ab漢', '👍🏽']) {
      const { content } = project(toolText(unit.repeat(1_000)));
      expectWithinCeilings(content);
      expect(content.isWellFormed()).toBe(true);
      expect(content).not.toContain('\ufffd');
      expect(Buffer.from(content, 'utf8').toString('utf8')).toBe(content);
    }
  });

  it('keeps the byte ceiling with lone surrogates in the input', () => {
    for (const text of ['\ud800'.repeat(2_000), '\udc00x'.repeat(1_500), 'a\ud83d'.repeat(900)]) {
      const policy = { maxBytes: 256, maxTokens: 128 };
      const { content, report } = project(toolText(text), { policy });
      expect(Buffer.byteLength(content)).toBeLessThanOrEqual(256);
      expect(report.projectedBytes).toBe(Buffer.byteLength(content));
      expect(content.isWellFormed()).toBe(true);
    }
  });
});

describe('tryProjectToolOutputForModel: structured success', () => {
  it('keeps a prefix of whole items of a large array', () => {
    const data = Array.from({ length: 500 }, (_, id) => ({ id, name: `item ${id}` }));
    const { content } = project(toolData(data));
    expectWithinCeilings(content);
    const parsed = JSON.parse(content);
    expect(parsed).toMatchObject({
      truncated: true,
      totalItems: 500,
      originalBytes: Buffer.byteLength(JSON.stringify(data)),
    });
    expect(parsed.notice).toMatch(/items holds the first shownItems of totalItems/);
    expect(parsed.shownItems).toBeGreaterThan(5);
    expect(parsed.items).toEqual(data.slice(0, parsed.shownItems));
  });

  it('carries the start of the JSON text of an object as a string preview', () => {
    const data = { rows: Array.from({ length: 500 }, (_, id) => ({ id, quote: `"${id}"\\` })) };
    const { content } = project(toolData(data));
    expectWithinCeilings(content);
    const parsed = JSON.parse(content);
    expect(parsed.truncated).toBe(true);
    expect(parsed.notice).toMatch(/preview holds the start of its JSON text/);
    expect(parsed.preview.length).toBeGreaterThan(100);
    expect(JSON.stringify(data).startsWith(parsed.preview)).toBe(true);
  });

  it('falls back to a preview when the first array item alone is too large', () => {
    const data: JsonValue = [{ blob: 'x'.repeat(5_000) }, 1, 2];
    const parsed = JSON.parse(project(toolData(data)).content);
    expect(parsed.preview.startsWith('[{"blob":"xxx')).toBe(true);
    expect(parsed.items).toBeUndefined();
  });

  it('previews a long string', () => {
    const parsed = JSON.parse(project(toolData('汉字'.repeat(2_000))).content);
    expect(parsed.preview.startsWith('"汉字汉字')).toBe(true);
  });
});

describe('tryProjectToolOutputForModel: failures', () => {
  const failure = toolFailure({
    code: 'tool_error',
    category: 'transient',
    retryable: true,
    message: 'connection reset: '.repeat(300),
    details: { attempts: Array.from({ length: 300 }, (_, attempt) => ({ attempt, reason: 'reset' })) },
  });

  it('keeps code, category and retryable, shortens message and details', () => {
    const { content, report } = project(failure);
    expectWithinCeilings(content);
    const parsed = JSON.parse(content);
    expect(parsed.ok).toBe(false);
    expect(parsed.error).toMatchObject({ code: 'tool_error', category: 'transient', retryable: true });
    expect(parsed.error.message).toMatch(/^connection reset: .*\.\.\. \[truncated\]$/);
    expect(parsed.error.details.truncated).toBe(true);
    expect(JSON.stringify(failure.error!.details).startsWith(parsed.error.details.preview)).toBe(true);
    expect(parsed).toMatchObject({
      truncated: true,
      originalBytes: report.originalBytes,
      originalTokens: report.originalTokens,
    });
  });

  it('keeps a short message whole when only details are large', () => {
    const outcome = toolFailure({
      code: 'invalid_arguments',
      message: 'city is required',
      details: { log: 'z'.repeat(10_000) },
    });
    const parsed = JSON.parse(project(outcome).content);
    expect(parsed.error.message).toBe('city is required');
    expect(parsed.error.details.preview.startsWith('{"log":"zzz')).toBe(true);
  });

  it('keeps small details whole when only the message is large', () => {
    const outcome = toolFailure({ code: 'timeout', message: 'waited '.repeat(1_000), details: { timeoutMs: 100 } });
    const parsed = JSON.parse(project(outcome).content);
    expect(parsed.error).toMatchObject({
      code: 'timeout',
      category: 'timeout',
      retryable: true,
      details: { timeoutMs: 100 },
    });
    expect(parsed.error.message).toMatch(/\.\.\. \[truncated\]$/);
  });

  it('fails with kind envelope when the preserved fields alone exceed the ceiling', () => {
    const outcome = toolFailure({ code: 'c'.repeat(2_000), message: 'm' });
    expect(failureOf(outcome, { policy: small })).toMatchObject({
      kind: 'envelope',
      message: expect.stringMatching(/over the ceiling of 1024 bytes/),
    });
  });
});

describe('tryProjectToolOutputForModel: errors as data', () => {
  it.each([
    ['NaN', { maxBytes: Number.NaN, maxTokens: 100 }],
    ['Infinity', { maxBytes: Infinity, maxTokens: 100 }],
    ['a fraction', { maxBytes: 1_000, maxTokens: 100.5 }],
    ['too few bytes', { maxBytes: 255, maxTokens: 100 }],
    ['too few tokens', { maxBytes: 1_000, maxTokens: 127 }],
    ['no policy', undefined],
  ])('returns invalid_policy for %s', (_name, policy) => {
    const error = failureOf(toolText('x'), { policy } as unknown as ToolOutputProjectionOptions);
    expect(error.kind).toBe('invalid_policy');
  });

  it.each([
    ['a BigInt', { big: 1n } as unknown as JsonValue],
    [
      'a cycle',
      (() => {
        const cycle: Record<string, unknown> = {};
        cycle.self = cycle;
        return cycle as JsonValue;
      })(),
    ],
    ['a function', (() => 1) as unknown as JsonValue],
  ])('returns serialization for data with %s', (_name, data) => {
    expect(failureOf(toolData(data), { policy: small }).kind).toBe('serialization');
  });

  it('returns serialization for a failure whose details cannot be serialized', () => {
    expect(
      failureOf(toolFailure({ code: 'x', message: 'm', details: { n: 2n } as unknown as JsonValue }), { policy: small })
        .kind,
    ).toBe('serialization');
  });

  it('returns serialization for something that is not an outcome', () => {
    expect(failureOf(null as unknown as ToolOutcome, { policy: small }).kind).toBe('serialization');
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('tokenizer offline');
      },
      /tokenizer offline/,
    ],
    ['returns NaN', () => Number.NaN, /got NaN/],
    ['returns Infinity', () => Infinity, /got Infinity/],
    ['returns a negative', () => -3, /got -3/],
    ['returns undefined', () => undefined as unknown as number, /got undefined/],
  ])('returns estimator when the estimator %s', (_name, estimateTokens, message) => {
    const error = failureOf(toolText('hello'), { policy: small, estimator: { estimateTokens } });
    expect(error.kind).toBe('estimator');
    expect(error.message).toMatch(message);
  });

  it('returns estimator when the estimator misbehaves only on the truncated candidates', () => {
    let calls = 0;
    const estimator: TextTokenEstimator = { estimateTokens: (text) => (++calls === 1 ? text.length : Number.NaN) };
    expect(failureOf(toolText('a'.repeat(5_000)), { policy: small, estimator }).kind).toBe('estimator');
  });

  it('returns estimator for an estimator without estimateTokens', () => {
    expect(failureOf(toolText('x'), { policy: small, estimator: {} as TextTokenEstimator }).kind).toBe('estimator');
  });

  it('returns envelope when the estimator rates even the smallest envelope over the ceiling', () => {
    const estimator: TextTokenEstimator = { estimateTokens: (text) => text.length * 10 };
    expect(failureOf(toolText('a'.repeat(5_000)), { policy: small, estimator }).kind).toBe('envelope');
  });

  it('rounds a fractional estimate up', () => {
    const estimator: TextTokenEstimator = { estimateTokens: (text) => text.length / 3 };
    expect(project(toolText('abcd'), { policy: small, estimator }).report.originalTokens).toBe(2);
  });
});

describe('tryProjectToolOutputForModel: estimators', () => {
  const outcomes = [
    toolText('漢字 and text 😀 '.repeat(500)),
    toolData(Array.from({ length: 300 }, (_, id) => ({ id }))),
    toolText('short'),
  ];

  it('gives the same result with the default estimator as with a wrapper around it', () => {
    const wrapper: TextTokenEstimator = { estimateTokens: (text) => fallbackTextTokenEstimator.estimateTokens(text) };
    for (const outcome of outcomes)
      expect(tryProjectToolOutputForModel(outcome, { policy: small, estimator: wrapper })).toEqual(
        tryProjectToolOutputForModel(outcome, { policy: small }),
      );
  });

  it('honours a subclass of the fallback estimator that overrides estimateTokens', () => {
    class Doubled extends FallbackTextTokenEstimator {
      override estimateTokens(text: string): number {
        return 2 * super.estimateTokens(text);
      }
    }
    const text = 'word '.repeat(100);
    const result = project(toolText(text), { policy: small, estimator: new Doubled() });
    expect(result.report.originalTokens).toBe(2 * fallbackTextTokenEstimator.estimateTokens(text));
  });
});

describe('projectToolOutputForModel', () => {
  it('returns content and report', () => {
    const outcome = toolText('words and more words\n'.repeat(200));
    const { content, report } = projectToolOutputForModel(outcome, { policy: DEFAULT_TOOL_OUTPUT_PROJECTION });
    expect(report.truncated).toBe(false);
    expect(content).toBe(outcome.text);
  });

  it('throws a typed error carrying the failure kind', () => {
    try {
      projectToolOutputForModel(toolData({ big: 1n } as unknown as JsonValue), { policy: small });
      throw new Error('expected a throw');
    } catch (error) {
      expect(error).toBeInstanceOf(ToolOutputProjectionError);
      expect(WuweError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'tool_output_projection_failed',
        kind: 'serialization',
        name: 'ToolOutputProjectionError',
      });
      expect((error as Error).message).toMatch(/^Tool output projection failed \(serialization\): .*BigInt/);
    }
  });
});
