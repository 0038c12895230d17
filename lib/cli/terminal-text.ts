/**
 * Characters a terminal acts on, or that reorder or hide text: C0 controls but the newline, DEL, C1 controls
 * (U+0080-U+009F, among them the one-character CSI U+009B), bidirectional overrides, isolates and marks, the
 * Unicode line and paragraph separators, and lone surrogates (a terminal draws U+FFFD, hiding what was there).
 * With the `u` flag a surrogate pair is one code point, so the surrogate range matches lone surrogates only.
 */
const UNSAFE_IN_TEXT =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udfff]/gu;

/** The same and the newline: for a field that must stay on its line. */
const UNSAFE_IN_LINE = new RegExp(`\\n|${UNSAFE_IN_TEXT.source}`, 'gu');

const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * The visible form of one unsafe character: `\t`, `\n`, `\r`, `\xHH` for the other C0 controls, `\uHHHH` for
 * the rest. None of them appears raw in `JSON.stringify` output but DEL, C1 and the bidi characters, which get
 * `\uHHHH`, a JSON escape of the same character: JSON text passed through stays exact JSON.
 */
function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (NAMED[char] !== undefined) return NAMED[char];
  if (code < 0x20) return `\\x${code.toString(16).padStart(2, '0')}`;
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Text made safe for a terminal: every character of {@link UNSAFE_IN_TEXT} is replaced by its visible escape
 * (`\x1b`, `\u009b`, `\u202e`, `\ud800`); newlines are kept. Every byte the command line writes passes here
 * (see `terminalSafeIo`).
 */
export function escapeTerminalText(text: string): string {
  return text.replace(UNSAFE_IN_TEXT, visible);
}

/** {@link escapeTerminalText}, and newlines escaped as `\n`: a value that cannot start an output line of its own. */
export function escapeTerminalLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, visible);
}

/**
 * A tagged template for one output line: each interpolated value goes through {@link escapeTerminalLine}, so a
 * record's text cannot forge a line; the literal parts are the command line's own.
 */
export function oneLine(strings: TemplateStringsArray, ...values: readonly unknown[]): string {
  return strings.reduce(
    (line, literal, index) => line + (index === 0 ? '' : escapeTerminalLine(String(values[index - 1]))) + literal,
    '',
  );
}

/**
 * `JSON.stringify(value, null, space)` with the characters of {@link escapeTerminalText} written as JSON `\uHHHH`
 * escapes: the same JSON value (it parses to the original strings), safe to print or `cat` to a terminal.
 */
export function terminalSafeJson(value: unknown, space?: number): string {
  return escapeTerminalText(JSON.stringify(value, null, space));
}
