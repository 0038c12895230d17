import { RE2JS } from 're2js';
import { hasErrorMarker } from '../errors/error-marker';
import { messageOf } from '../errors/message-of';
import { WuweError } from '../errors/wuwe-error';

const UNSUPPORTED_PATTERN_ERROR_MARKER = Symbol.for('wuwe.error.UnsupportedPatternError');

/**
 * A schema pattern the linear-time engine cannot match: a backreference or a lookaround (which
 * need backtracking), a lone surrogate escape (arguments never hold one), a repetition over 1000,
 * or a pattern that is not a valid JavaScript regular expression at all.
 */
export class UnsupportedPatternError extends WuweError<'invalid_pattern'> {
  private readonly [UNSUPPORTED_PATTERN_ERROR_MARKER] = true;

  /** True when `value` is an UnsupportedPatternError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is UnsupportedPatternError {
    return hasErrorMarker(value, UNSUPPORTED_PATTERN_ERROR_MARKER);
  }

  constructor(
    readonly pattern: string,
    readonly reason: string,
  ) {
    super('invalid_pattern', `pattern ${JSON.stringify(pattern)} cannot be matched in linear time: ${reason}`);
  }
}

/** What ajv needs of a compiled pattern. */
export interface LinearRegExp {
  test(text: string): boolean;
  /** The pattern and flags, as `RegExp` shows them: ajv keys its shared patterns by this. */
  toString(): string;
}

/**
 * The regular expression engine given to ajv (`code.regExp`) for `pattern` and `patternProperties`:
 * RE2 semantics (re2js, pure JavaScript), so matching takes time linear in the text and a pattern
 * such as `^(a+)+$` cannot stall a call. The JavaScript pattern (read with the `u` flag, as ajv
 * does) is translated so that it keeps its JavaScript meaning: `.` does not match line terminators,
 * `\s` matches Unicode white space, `\uXXXX`, `\u{...}`, `\cX` and `(?<name>` are rewritten.
 * Throws {@link UnsupportedPatternError} for what RE2 cannot match.
 */
export const linearRegExp = Object.assign(
  (pattern: string, flags: string): LinearRegExp => {
    try {
      new RegExp(pattern, flags);
    } catch (error) {
      throw new UnsupportedPatternError(pattern, `not a valid regular expression (${messageOf(error)})`);
    }
    const translated = toRe2Syntax(pattern);
    try {
      const compiled = RE2JS.compile(translated);
      // ajv shares compiled patterns between schemas by their `toString()`: it must name the pattern.
      return { test: (text: string) => compiled.test(text), toString: () => `/${pattern}/${flags}` };
    } catch (error) {
      throw new UnsupportedPatternError(pattern, error instanceof Error ? error.message : String(error));
    }
  },
  // ajv emits this name in standalone code only; wuwe never generates standalone validators.
  { code: 'require("re2js").RE2JS.compile' },
);

/**
 * JavaScript's `\s`: the Unicode space separators plus tab, line feed, vertical tab, form feed, carriage return, the
 * line and paragraph separators and the byte order mark.
 */
const SPACE_ITEMS = '\\t\\n\\x0B\\f\\r\\p{Zs}\\x{2028}\\x{2029}\\x{FEFF}';
/** JavaScript's `.` without the `s` flag: anything but a line terminator. */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/**
 * Rewrites a JavaScript pattern (`u` flag) into RE2 syntax with the same meaning; throws for what RE2 cannot express.
 */
function toRe2Syntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let at = 0; at < pattern.length;) {
    const char = pattern[at];
    if (char === '\\') {
      const [text, length] = escape(pattern, at, inClass);
      out += text;
      at += length;
      continue;
    }
    if (inClass) {
      if (char === ']') inClass = false;
      out += char === '[' ? '\\[' : char;
    } else if (char === '[') {
      if (pattern.startsWith('[]', at)) {
        out += '[^\\x00-\\x{10FFFF}]';
        at += 2;
        continue;
      }
      if (pattern.startsWith('[^]', at)) {
        out += '[\\x00-\\x{10FFFF}]';
        at += 3;
        continue;
      }
      inClass = true;
      out += char;
      if (pattern[at + 1] === '^') {
        out += '^';
        at++;
      }
    } else if (char === '(') {
      if (pattern.startsWith('(?=', at) || pattern.startsWith('(?!', at))
        throw new UnsupportedPatternError(pattern, 'a lookahead needs backtracking');
      if (pattern.startsWith('(?<=', at) || pattern.startsWith('(?<!', at))
        throw new UnsupportedPatternError(pattern, 'a lookbehind needs backtracking');
      if (pattern.startsWith('(?<', at)) {
        out += '(?P<';
        at += 3;
        continue;
      }
      out += char;
    } else out += char === '.' ? DOT : char;
    at++;
  }
  return out;
}

/** The RE2 form of the escape at `at` and how many characters of the pattern it spans. */
function escape(pattern: string, at: number, inClass: boolean): [string, number] {
  const next = pattern[at + 1];
  if (/[1-9]/.test(next) || next === 'k')
    throw new UnsupportedPatternError(pattern, 'a backreference needs backtracking');
  switch (next) {
    case 's':
      return [inClass ? SPACE_ITEMS : `[${SPACE_ITEMS}]`, 2];
    case 'S':
      // Inside a class RE2 keeps its ASCII `\S` (only `[\S]`-like classes differ on Unicode spaces).
      return [inClass ? '\\S' : `[^${SPACE_ITEMS}]`, 2];
    case 'v':
      return ['\\x0B', 2];
    case '0':
      return ['\\x00', 2];
    case 'c':
      return [`\\x{${(pattern.charCodeAt(at + 2) % 32).toString(16)}}`, 3];
    case 'u':
      return unicodeEscape(pattern, at);
    case 'p':
    case 'P':
      return propertyEscape(pattern, at);
    default:
      return [`\\${next}`, 2];
  }
}

/** `\p{L}` stays; `\p{Script=Greek}` (or `sc=`, `gc=`, `General_Category=`) becomes RE2's `\p{Greek}`. */
function propertyEscape(pattern: string, at: number): [string, number] {
  const close = pattern.indexOf('}', at);
  const body = pattern.slice(at + 3, close);
  const equals = body.indexOf('=');
  const name = equals === -1 ? body : body.slice(equals + 1);
  if (equals !== -1 && !/^(Script|sc|General_Category|gc)$/.test(body.slice(0, equals)))
    throw new UnsupportedPatternError(pattern, `the property \\${pattern[at + 1]}{${body}} has no RE2 form`);
  return [`\\${pattern[at + 1]}{${name}}`, close + 1 - at];
}

/** `\u{X…}`, `\uXXXX`, or a `\uD83D\uDE00` pair as one code point; a lone surrogate is refused. */
function unicodeEscape(pattern: string, at: number): [string, number] {
  if (pattern[at + 2] === '{') {
    const close = pattern.indexOf('}', at);
    const code = parseInt(pattern.slice(at + 3, close), 16);
    return checkedCodePoint(pattern, code, close + 1 - at);
  }
  const high = parseInt(pattern.slice(at + 2, at + 6), 16);
  if (high >= 0xd800 && high <= 0xdbff && /^\\u[dD][c-fC-F][0-9a-fA-F]{2}/.test(pattern.slice(at + 6, at + 12))) {
    const low = parseInt(pattern.slice(at + 8, at + 12), 16);
    return checkedCodePoint(pattern, 0x10000 + (high - 0xd800) * 0x400 + (low - 0xdc00), 12);
  }
  return checkedCodePoint(pattern, high, 6);
}

function checkedCodePoint(pattern: string, code: number, length: number): [string, number] {
  if (code >= 0xd800 && code <= 0xdfff)
    throw new UnsupportedPatternError(pattern, 'a lone surrogate escape never matches well-formed text');
  return [`\\x{${code.toString(16)}}`, length];
}
