import { DEFAULT_RETRYABLE_CATEGORIES } from '../../lib/contract';
import {
  isToolOutcome,
  STANDARD_TOOL_ERROR_CODES,
  standardFailure,
  TOOL_ERROR_CATEGORIES,
  toolData,
  toolFailure,
  ToolOutcome,
  toolText,
} from '../../lib';
import { LlmToolResult, normalizeToolOutcome } from '../../lib/tools';

describe('toolText', () => {
  it('is a success carrying text', () => {
    expect(toolText('Tokyo is 22 degrees.')).toEqual({ ok: true, text: 'Tokyo is 22 degrees.' });
  });

  it('keeps extra fields but never lets them change ok or text', () => {
    const outcome = toolText('done', {
      resourceVersion: 7,
      artifacts: [{ name: 'report.pdf' }],
      ok: false,
      text: 'other',
    } as any);
    expect(outcome).toEqual({ ok: true, text: 'done', resourceVersion: 7, artifacts: [{ name: 'report.pdf' }] });
  });
});

describe('toolData', () => {
  it('is a success carrying structured data', () => {
    expect(toolData({ city: 'Tokyo', temperature: 22 })).toEqual({
      ok: true,
      data: { city: 'Tokyo', temperature: 22 },
    });
    expect(toolData(null)).toEqual({ ok: true, data: null });
    expect(toolData([1, 2])).toEqual({ ok: true, data: [1, 2] });
  });

  it('keeps extra fields but never lets them change ok', () => {
    expect(toolData(1, { compensation: 'none', metadata: { ms: 3 }, ok: false } as any)).toEqual({
      ok: true,
      data: 1,
      compensation: 'none',
      metadata: { ms: 3 },
    });
  });
});

describe('toolFailure', () => {
  it('takes the category of a standard code from the table', () => {
    for (const [code, category] of Object.entries(STANDARD_TOOL_ERROR_CODES)) {
      const outcome = toolFailure({ code, message: 'm' });
      expect(outcome.ok).toBe(false);
      expect(outcome.error!.category).toBe(category);
      expect(outcome.error!.retryable).toBe(DEFAULT_RETRYABLE_CATEGORIES.includes(category));
    }
  });

  it.each([
    ['invalid_arguments', 'validation', false],
    ['timeout', 'timeout', true],
    ['heartbeat_timeout', 'timeout', true],
    ['rate_limited', 'rate_limited', true],
    ['unavailable', 'unavailable', true],
    ['tool_error', 'internal', false],
    ['approval_denied', 'permission', false],
    ['outcome_unknown', 'unknown', false],
  ])('defaults %s to category %s, retryable %p', (code, category, retryable) => {
    expect(toolFailure({ code, message: 'm' }).error).toEqual({ code, category, message: 'm', retryable });
  });

  it('gives an unknown code the internal category, not retryable', () => {
    expect(toolFailure({ code: 'my_own_code', message: 'm' }).error).toEqual({
      code: 'my_own_code',
      category: 'internal',
      message: 'm',
      retryable: false,
    });
  });

  it('makes transient failures retryable by default and keeps an explicit choice', () => {
    expect(toolFailure({ code: 'flaky', category: 'transient', message: 'm' }).error!.retryable).toBe(true);
    expect(toolFailure({ code: 'timeout', message: 'm', retryable: false }).error!.retryable).toBe(false);
    expect(toolFailure({ code: 'tool_error', message: 'm', retryable: true }).error!.retryable).toBe(true);
    expect(toolFailure({ code: 'timeout', category: 'internal', message: 'm' }).error).toMatchObject({
      category: 'internal',
      retryable: false,
    });
  });

  it('carries details, compensation and metadata only when given', () => {
    const bare = toolFailure({ code: 'conflict', message: 'm' });
    expect(Object.keys(bare).sort()).toEqual(['error', 'ok']);
    expect(Object.keys(bare.error!).sort()).toEqual(['category', 'code', 'message', 'retryable']);
    const full = toolFailure({
      code: 'conflict',
      message: 'm',
      details: { at: '/x' },
      compensation: 'required',
      metadata: { attempt: 2 },
    });
    expect(full).toEqual({
      ok: false,
      error: { code: 'conflict', category: 'conflict', message: 'm', retryable: false, details: { at: '/x' } },
      compensation: 'required',
      metadata: { attempt: 2 },
    });
  });

  it('has a standardFailure shorthand', () => {
    expect(standardFailure('precondition_failed', 'stale version', { expected: 3 })).toEqual({
      ok: false,
      error: {
        code: 'precondition_failed',
        category: 'precondition',
        message: 'stale version',
        retryable: false,
        details: { expected: 3 },
      },
    });
  });
});

describe('TOOL_ERROR_CATEGORIES', () => {
  it('lists every category the standard codes use', () => {
    for (const category of Object.values(STANDARD_TOOL_ERROR_CODES)) expect(TOOL_ERROR_CATEGORIES).toContain(category);
    expect(DEFAULT_RETRYABLE_CATEGORIES).toEqual(['timeout', 'rate_limited', 'unavailable', 'transient']);
  });
});

describe('isToolOutcome', () => {
  it('accepts outcome literals and constructed outcomes', () => {
    const literals: unknown[] = [
      { ok: true },
      { ok: true, text: 'hi' },
      { ok: true, data: { a: 1 }, resourceVersion: 3, compensation: 'completed', artifacts: [], metadata: {} },
      { ok: false, error: { code: 'x', message: 'm' } },
      { ok: false, error: { code: 'x', category: 'internal', message: 'm', retryable: false } },
      toolText('t'),
      toolData([1]),
      toolFailure({ code: 'timeout', message: 'm' }),
    ];
    for (const literal of literals) expect(isToolOutcome(literal)).toBe(true);
  });

  it('rejects objects with extra keys, failures without code or message, and successes with an error', () => {
    const rejected: unknown[] = [
      { ok: true, temperature: 22 },
      { ok: false, error: { code: 'x', message: 'm' }, reason: 'extra' },
      { ok: false, error: { message: 'm' } },
      { ok: false, error: { code: 7, message: 'm' } },
      { ok: false, error: { code: 'x' } },
      { ok: false },
      { ok: false, error: null },
      { ok: false, error: 'boom' },
      { ok: true, error: { code: 'x', message: 'm' } },
      { ok: 'yes' },
      { text: 'no ok' },
      [{ ok: true }],
      null,
      undefined,
      'ok',
      42,
    ];
    for (const value of rejected) expect(isToolOutcome(value)).toBe(false);
  });
});

describe('normalizeToolOutcome', () => {
  it('returns a success and a complete failure unchanged', () => {
    const success = toolData({ a: 1 });
    expect(normalizeToolOutcome(success)).toBe(success);
    const failure = toolFailure({ code: 'x', message: 'm' });
    expect(normalizeToolOutcome(failure)).toBe(failure);
  });

  it('fills category and retryable of a literal failure from the standard table', () => {
    const literal = { ok: false, error: { code: 'rate_limited', message: 'slow down' } } as unknown as ToolOutcome;
    expect(normalizeToolOutcome(literal)).toEqual({
      ok: false,
      error: { code: 'rate_limited', category: 'rate_limited', message: 'slow down', retryable: true },
    });
  });

  it('keeps what the literal gave and every other field', () => {
    const literal = {
      ok: false,
      error: { code: 'quota', category: 'unavailable', message: 'm', details: { left: 0 } },
      compensation: 'failed',
      metadata: { tries: 1 },
    } as unknown as LlmToolResult;
    expect(normalizeToolOutcome(literal)).toEqual({
      ok: false,
      error: { code: 'quota', category: 'unavailable', message: 'm', retryable: true, details: { left: 0 } },
      compensation: 'failed',
      metadata: { tries: 1 },
    });
    const explicit = {
      ok: false,
      error: { code: 'timeout', message: 'm', retryable: false },
    } as unknown as ToolOutcome;
    expect(normalizeToolOutcome(explicit).error).toEqual({
      code: 'timeout',
      category: 'timeout',
      message: 'm',
      retryable: false,
    });
  });

  it('does not change the literal it was given', () => {
    const literal = { ok: false, error: { code: 'timeout', message: 'm' } } as unknown as ToolOutcome;
    normalizeToolOutcome(literal);
    expect(literal).toEqual({ ok: false, error: { code: 'timeout', message: 'm' } });
  });
});
