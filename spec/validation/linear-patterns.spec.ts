import { Matches } from 'class-validator';
import { compileInputValidator, SchemaCompileError } from '../../lib/validation';
import { Field, Tool, ToolDefinitionError } from '../../lib';
import { makeLlmTool, tryParseToolArguments } from '../../lib/tools';

const EVIL = '^(a+)+$';
const HOSTILE = 'a'.repeat(50_000) + '!';

describe('patterns are matched in linear time', () => {
  @Tool({ description: 'Takes a word of a letters.' })
  class EvilMatches {
    @Field() @Matches(/^(a+)+$/) word!: string;
    invoke(): string {
      return this.word;
    }
  }

  it('refuses 50,000 characters against @Matches(/^(a+)+$/) without stalling', () => {
    const parsed = tryParseToolArguments(EvilMatches, { word: HOSTILE });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok)
      expect(parsed.error.issues).toEqual([
        { pointer: '/word', message: `must match pattern "${EVIL}"`, keyword: 'pattern' },
      ]);
    expect(tryParseToolArguments(EvilMatches, JSON.stringify({ word: 'a'.repeat(50_000) })).ok).toBe(true);
  });

  it('matches `pattern` in a schema and `patternProperties` keys in linear time', () => {
    const validate = compileInputValidator({ type: 'object', properties: { s: { type: 'string', pattern: EVIL } } });
    expect(validate({ s: HOSTILE }).map((issue) => issue.keyword)).toEqual(['pattern']);
    expect(validate({ s: 'aaaa' })).toEqual([]);
    const byKey = compileInputValidator({
      type: 'object',
      patternProperties: { [EVIL]: { type: 'integer' } },
      additionalProperties: false,
    });
    expect(byKey({ [HOSTILE]: 1 }).map((issue) => issue.keyword)).toEqual(['additionalProperties']);
    expect(byKey({ aaa: 1 })).toEqual([]);
    expect(byKey({ aaa: 'x' }).map((issue) => issue.keyword)).toEqual(['type']);
  });

  it('keeps the meaning JavaScript gives a pattern (with the u flag)', () => {
    const cases: Array<[string, string[]]> = [
      ['^.$', ['a', '\r', '\n', '\u2028', '😀', 'é']],
      ['^\\s+$', [' \t', '\u00a0', '\u3000', '\ufeff', '\u2028', 'x', '\v']],
      ['^[\\s\\S]$', ['\n', 'a', '😀']],
      ['^\\S+$', ['ab', '\u00a0']],
      ['^[^\\s]+$', ['ab', '\u00a0', 'a b']],
      ['^\\u00e9\\u{1F600}$', ['é😀', 'e😀']],
      ['^\\uD83D\\uDE00$', ['😀', 'x']],
      ['^(?<year>\\d{4})-\\d\\d$', ['2024-01', '24-01']],
      ['^\\w+\\b', ['abc def', 'é']],
      ['^\\d+$', ['0123', '٣']],
      ['^[a-z]{2,4}$', ['ab', 'abcde']],
      ['^\\cJ\\0$', ['\n\0', '\n']],
      ['^\\/\\.[\\]\\-]$', ['/.]', '/.-', '/.x']],
      ['colou?r', ['my color', 'colr']],
      ['^\\p{L}+$', ['Ωé', '1']],
      ['^a$', ['a\n', 'a']],
    ];
    for (const [pattern, inputs] of cases) {
      const validate = compileInputValidator({ type: 'string', pattern });
      for (const input of inputs)
        expect([pattern, input, validate(input).length === 0]).toEqual([
          pattern,
          input,
          new RegExp(pattern, 'u').test(input),
        ]);
    }
  });

  it.each([
    ['(a)\\1', /backreference/],
    ['(?<x>a)\\k<x>', /backreference/],
    ['a(?=b)', /lookahead/],
    ['a(?!b)', /lookahead/],
    ['(?<=a)b', /lookbehind/],
    ['(?<!a)b', /lookbehind/],
    ['(', /not a valid regular expression/],
    ['[\\uD800-\\uDBFF]', /lone surrogate/],
  ])('refuses %s at definition with invalid_pattern', (pattern, reason) => {
    let error: unknown;
    try {
      compileInputValidator({ type: 'object', properties: { s: { type: 'string', pattern } } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SchemaCompileError);
    expect((error as SchemaCompileError).code).toBe('invalid_pattern');
    expect((error as SchemaCompileError).message).toMatch(reason);
  });

  it('refuses a tool class whose @Matches uses a backreference, as ToolDefinitionError invalid_pattern', () => {
    @Tool({ description: 'Takes a doubled word.' })
    class Doubled {
      @Field() @Matches(/^(\w+) \1$/) words!: string;
      invoke(): string {
        return this.words;
      }
    }
    let error: unknown;
    try {
      makeLlmTool(Doubled);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ToolDefinitionError);
    expect((error as ToolDefinitionError).code).toBe('invalid_pattern');
    expect((error as ToolDefinitionError).message).toMatch(/Doubled.*backreference/);
  });
});
