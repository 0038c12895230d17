import { JsonSchema } from '../lib';

/** One worst case for argument validation: arguments inside the limits, or just over one. */
export interface ValidationCase {
  readonly name: string;
  /** JSON text, or an already-parsed object as provider SDKs hand it over. */
  readonly input: () => unknown;
  readonly schema: JsonSchema;
}

const MIB = 1024 * 1024;
const LIMIT = 50_000;

const anyList: JsonSchema = {
  type: 'object',
  properties: { a: { type: 'array' } },
  required: ['a'],
  additionalProperties: false,
};
const strings: JsonSchema = {
  type: 'object',
  properties: { a: { type: 'array', items: { type: 'string' } } },
  additionalProperties: false,
};
const integers: JsonSchema = { type: 'object', additionalProperties: { type: 'integer' } };
const closed: JsonSchema = { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false };
const evil = (keyword: 'pattern' | 'email' | 'uri'): JsonSchema => ({
  type: 'object',
  properties: {
    s: keyword === 'pattern' ? { type: 'string', pattern: '^(a+)+$' } : { type: 'string', format: keyword },
  },
});

function wide(count: number): Record<string, number> {
  const object: Record<string, number> = {};
  for (let index = 0; index < count; index++) object[`k${index}`] = index;
  return object;
}

/** Arrays nested 63 deep, each level holding a wide row of numbers, just under `LIMIT` values in all. */
function deepAndWide(): unknown {
  let inner: unknown[] = [];
  for (let depth = 0; depth < 62; depth++) inner = [inner, ...new Array(Math.floor(LIMIT / 62) - 2).fill(0)];
  return { a: inner };
}

/** The cases `npm run bench` measures. */
export const VALIDATION_CASES: readonly ValidationCase[] = [
  {
    name: '8 MiB of [] (2.8M empty arrays), text',
    input: () => `{"a":[${new Array(Math.floor((8 * MIB - 8) / 3)).fill('[]').join(',')}]}`,
    schema: anyList,
  },
  {
    name: `${LIMIT - 2} empty arrays, text`,
    input: () => `{"a":[${new Array(LIMIT - 2).fill('[]').join(',')}]}`,
    schema: anyList,
  },
  {
    name: `${LIMIT - 2} empty objects, object`,
    input: () => ({ a: Array.from({ length: LIMIT - 2 }, () => ({})) }),
    schema: anyList,
  },
  {
    name: `wide object, ${LIMIT - 1} keys, valid, text`,
    input: () => JSON.stringify(wide(LIMIT - 1)),
    schema: integers,
  },
  { name: `wide object, ${LIMIT - 1} keys, valid, object`, input: () => wide(LIMIT - 1), schema: integers },
  {
    name: `wide object, ${LIMIT - 1} unknown keys, text`,
    input: () => JSON.stringify(wide(LIMIT - 1)),
    schema: closed,
  },
  {
    name: `${LIMIT - 2} wrong types, text`,
    input: () => `{"a":[${new Array(LIMIT - 2).fill('1').join(',')}]}`,
    schema: strings,
  },
  { name: `deep (63) and wide, just under ${LIMIT} values, object`, input: deepAndWide, schema: anyList },
  {
    name: '8 MiB of CJK in strings, object',
    input: () => ({ a: Array.from({ length: 1_000 }, () => '漢'.repeat(Math.floor((8 * MIB) / 3 / 1_000) - 4)) }),
    schema: strings,
  },
  { name: '9 MiB of CJK in one string, object', input: () => ({ a: ['漢'.repeat(3 * MIB)] }), schema: strings },
  {
    name: '8 MiB string against ^(a+)+$, text',
    input: () => JSON.stringify({ s: 'a'.repeat(8 * MIB - 20) + '!' }),
    schema: evil('pattern'),
  },
  {
    name: '8 MiB string, format email, text',
    input: () => JSON.stringify({ s: 'a'.repeat(8 * MIB - 20) + '@' }),
    schema: evil('email'),
  },
  {
    name: '8 MiB string, format uri, text',
    input: () => JSON.stringify({ s: 'http://' + 'a'.repeat(8 * MIB - 30) + '!' }),
    schema: evil('uri'),
  },
];
