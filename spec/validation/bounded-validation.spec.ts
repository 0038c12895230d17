import fc from 'fast-check';
import {
  compileInputValidator,
  DEFAULT_ARGUMENT_LIMITS,
  guardJsonValue,
  MAX_FORMAT_STRING_LENGTH,
  MAX_REPORTED_ISSUES,
} from '../../lib/validation';
import { JsonSchema } from '../../lib';
import { decodeToolArguments } from '../../lib/validation/decode-arguments';

function keywords(input: unknown, limits = DEFAULT_ARGUMENT_LIMITS): string[] {
  const decoded = decodeToolArguments(input, limits);
  return decoded.ok ? [] : decoded.issues.map((issue) => issue.keyword);
}

/** How many values a JSON value holds, the root included. */
function valueCount(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce((sum: number, item) => sum + valueCount(item), 0);
  if (typeof value === 'object' && value !== null)
    return 1 + Object.values(value).reduce((sum: number, item) => sum + valueCount(item), 0);
  return 1;
}

describe('the element limit', () => {
  it('is 50,000 values by default', () => {
    expect(DEFAULT_ARGUMENT_LIMITS.maxElements).toBe(50_000);
  });

  it('refuses millions of empty containers inside 8 MiB of text before parsing them', () => {
    const text = `{"a":[${new Array(2_000_000).fill('[]').join(',')}]}`;
    expect(Buffer.byteLength(text)).toBeLessThan(DEFAULT_ARGUMENT_LIMITS.maxBytes);
    expect(keywords(text)).toEqual(['maxElements']);
    expect(keywords(`{"a":[${new Array(1_500_000).fill('{}').join(',')}]}`)).toEqual(['maxElements']);
  });

  it('refuses a very wide object, as text and as an object', () => {
    const wide = Object.fromEntries(Array.from({ length: 60_000 }, (_, index) => [`k${index}`, 0]));
    expect(keywords(wide)).toEqual(['maxElements']);
    expect(keywords(JSON.stringify(wide))).toEqual(['maxElements']);
  });

  it('does not count commas and brackets inside strings', () => {
    const value = { a: ',[{'.repeat(1_000_000), b: '\\",['.repeat(100_000) };
    expect(keywords(JSON.stringify(value))).toEqual([]);
  });

  it('counts text exactly as the walk counts the parsed value', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 5 })), fc.boolean(), (value, pretty) => {
        fc.pre(guardJsonValue(value, { ...DEFAULT_ARGUMENT_LIMITS, maxBytes: Number.MAX_SAFE_INTEGER }).ok);
        const count = valueCount(value);
        // A text shorter than the limit is never scanned: pad it with spaces.
        const text = JSON.stringify(value, null, pretty ? 2 : undefined) + ' '.repeat(count);
        for (const maxElements of [count, count - 1]) {
          const limits = { ...DEFAULT_ARGUMENT_LIMITS, maxElements };
          const expected = maxElements >= count ? [] : ['maxElements'];
          expect(keywords(text, limits)).toEqual(expected);
          expect(keywords(value, limits)).toEqual(expected);
        }
      }),
    );
  });
});

describe('a bounded list of issues', () => {
  const schema: JsonSchema = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } };

  it('lists the first issues of a small value and counts the rest', () => {
    const issues = compileInputValidator(schema)({ tags: new Array(100).fill(1) });
    expect(issues).toHaveLength(MAX_REPORTED_ISSUES + 1);
    expect(issues[0]).toEqual({ pointer: '/tags/0', message: 'must be string', keyword: 'type' });
    expect(issues[MAX_REPORTED_ISSUES]).toEqual({
      pointer: '',
      message: '80 more issues not listed',
      keyword: 'moreIssues',
    });
  });

  it('stops at the first issue of a large value, and says so', () => {
    const issues = compileInputValidator(schema)({ tags: new Array(50_000).fill(1) });
    expect(issues).toEqual([
      { pointer: '/tags/0', message: 'must be string', keyword: 'type' },
      { pointer: '', message: expect.stringContaining('stopped at the first issue'), keyword: 'moreIssues' },
    ]);
  });

  it('lists the first guard issues and counts the rest', () => {
    const decoded = decodeToolArguments({ tags: new Array(10_000).fill('\ud800') });
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.issues).toHaveLength(MAX_REPORTED_ISSUES + 1);
    expect(decoded.issues[MAX_REPORTED_ISSUES]).toEqual({
      pointer: '',
      message: '9980 more issues not listed',
      keyword: 'moreIssues',
    });
  });
});

describe('a validator that cannot finish', () => {
  it('refuses a format string over MAX_FORMAT_STRING_LENGTH without running the format (uri on 8 MiB overflowed the RegExp stack)', () => {
    const validate = compileInputValidator({
      type: 'object',
      properties: { u: { type: 'string', format: 'uri' }, d: { type: 'string', format: 'date-time' } },
    });
    const issues = validate({ u: 'http://' + 'a'.repeat(8 * 1024 * 1024 - 30) + '!' });
    expect(issues).toEqual([expect.objectContaining({ pointer: '/u', keyword: 'format' })]);
    expect(validate({ u: 'http://example.com/' + 'a'.repeat(MAX_FORMAT_STRING_LENGTH - 19) })).toEqual([]);
    expect(validate({ u: 'http://example.com/' + 'a'.repeat(MAX_FORMAT_STRING_LENGTH - 18) })).toEqual([
      expect.objectContaining({ pointer: '/u', keyword: 'format' }),
    ]);
    expect(validate({ u: 'http://example.com/a', d: '2026-12-01T10:00:00Z' })).toEqual([]);
    expect(validate({ d: 'yesterday' })).toEqual([expect.objectContaining({ pointer: '/d', keyword: 'format' })]);
  });

  it('leaves byte (base64) uncapped', () => {
    const validate = compileInputValidator({ type: 'object', properties: { b: { type: 'string', format: 'byte' } } });
    expect(validate({ b: 'QUJD'.repeat(MAX_FORMAT_STRING_LENGTH) })).toEqual([]);
  });
});
