import fc from 'fast-check';

/**
 * Generated samples of the classes of text tools typically return, for checking token estimators
 * against real tokenizers.
 */
const word = fc.constantFrom(
  'the',
  'of',
  'and',
  'to',
  'in',
  'is',
  'that',
  'for',
  'it',
  'was',
  'on',
  'are',
  'with',
  'as',
  'be',
  'this',
  'by',
  'from',
  'request',
  'server',
  'returned',
  'configuration',
  'international',
  'approximately',
  'responsibility',
  'unexpectedly',
  'file',
  'directory',
  'value',
  'between',
  'however',
  'because',
  'information',
  'development',
  'performance',
  'Tokyo',
  'quick',
  'brown',
  'fox',
  'jumps',
  'over',
  'lazy',
  'dog',
  'anthropomorphic',
  'characteristics',
  'notwithstanding',
);
const sentence = fc
  .tuple(fc.array(word, { minLength: 3, maxLength: 18 }), fc.constantFrom('.', '!', '?', ',', ';', ':', ' —'))
  .map(([words, end]) => words.join(' ').replace(/^./, (c) => c.toUpperCase()) + end);
const hexChar = fc.constantFrom(...'0123456789abcdef'.split(''));
const base64Char = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split(''));
const hex = (min: number, max: number) => fc.string({ unit: hexChar, minLength: min, maxLength: max });
const identifier = fc
  .tuple(word, fc.array(word, { maxLength: 3 }))
  .map(([first, rest]) => first + rest.map((w) => w[0].toUpperCase() + w.slice(1)).join(''));
const timestamp = fc
  .date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true })
  .map((date) => date.toISOString());
const jsonish = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: -1e9, max: 1e9 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    sentence,
    identifier,
    hex(8, 40),
    timestamp,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 6 }),
    fc.dictionary(identifier, tie('value'), { maxKeys: 6 }),
  ),
})).value;
const cjkChar = fc.integer({ min: 0x4e00, max: 0x9fff }).map((code) => String.fromCodePoint(code));
const kana = fc.integer({ min: 0x3041, max: 0x30ff }).map((code) => String.fromCodePoint(code));
const hangul = fc.integer({ min: 0xac00, max: 0xd7a3 }).map((code) => String.fromCodePoint(code));
const emoji = fc.oneof(
  fc.integer({ min: 0x1f300, max: 0x1faff }).map((code) => String.fromCodePoint(code)),
  fc.constantFrom('👍🏽', '👨‍👩‍👧‍👦', '🏳️‍🌈', '🇯🇵', '❤️', '✅', '🧑🏿‍💻', '👩🏻‍🔬', '1️⃣'),
);
const sourceLine = fc.oneof(
  fc.tuple(identifier, identifier, fc.integer()).map(([a, b, n]) => `  const ${a} = ${b}(${n}, '${a}');`),
  fc.tuple(identifier, identifier).map(([a, b]) => `export function ${a}(${b}: string): Promise<void> {`),
  fc
    .tuple(identifier, identifier)
    .map(([a, b]) => `    if (${a} !== undefined && ${a}.length > 0) return ${b}[${a}] ?? null;`),
  fc.tuple(identifier).map(([a]) => `  }\n  // ${a}: see the documentation above`),
  fc.tuple(identifier, identifier).map(([a, b]) => `for (let i = 0; i < ${a}.length; i++) ${b} += ${a}[i] * 2;`),
  fc.constant('}'),
);
const logLine = fc
  .tuple(
    timestamp,
    fc.constantFrom('INFO', 'WARN', 'ERROR', 'DEBUG'),
    hex(8, 32),
    fc.uuid(),
    sentence,
    fc.integer({ min: 0, max: 99999 }),
  )
  .map(([time, level, id, uuid, message, ms]) => `${time} ${level} [req=${id}] trace=${uuid} ${message} (${ms}ms)`);

/** The classes of typical tool output, each a generator of texts. */
export const TOOL_OUTPUT_CLASSES: Readonly<Record<string, fc.Arbitrary<string>>> = {
  'English prose': fc.array(sentence, { minLength: 1, maxLength: 30 }).map((s) => s.join(' ')),
  'compact JSON': jsonish.map((value) => JSON.stringify(value)),
  'pretty JSON': jsonish.map((value) => JSON.stringify(value, null, 2)),
  'logs with ids and timestamps': fc.array(logLine, { minLength: 1, maxLength: 20 }).map((lines) => lines.join('\n')),
  'source code': fc.array(sourceLine, { minLength: 1, maxLength: 30 }).map((lines) => lines.join('\n')),
  hex: hex(8, 2000),
  base64: fc
    .string({ unit: base64Char, minLength: 16, maxLength: 2000 })
    .map((s) => s + '='.repeat((4 - (s.length % 4)) % 4)),
  'digit runs': fc
    .tuple(
      fc.array(fc.string({ unit: fc.constantFrom(...'0123456789'.split('')), minLength: 1, maxLength: 40 }), {
        minLength: 1,
        maxLength: 50,
      }),
      fc.constantFrom(' ', ',', '\n', ''),
    )
    .map(([runs, separator]) => runs.join(separator)),
  punctuation: fc.string({
    unit: fc.constantFrom(...'!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~'.split('')),
    minLength: 1,
    maxLength: 500,
  }),
  CJK: fc
    .array(fc.oneof(cjkChar, kana, hangul, fc.constantFrom('，', '。', '、', '「', '」')), {
      minLength: 1,
      maxLength: 600,
    })
    .map((chars) => chars.join('')),
  'emoji sequences': fc
    .array(fc.oneof(emoji, fc.constant(' ')), { minLength: 1, maxLength: 300 })
    .map((chars) => chars.join('')),
};
