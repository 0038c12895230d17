import { Field, parseToolArguments, Tool, ToolArgumentError } from '../../lib';
import { tryParseToolArguments } from '../../lib/tools';

class Inner {
  @Field() v!: string;
}

@Tool({ description: 'Edge cases.' })
class Edge {
  invoke(): void {}
  @Field({ optional: true }) s?: string;
  @Field({ optional: true }) n?: number;
  @Field({ optional: true, type: 'integer' }) i?: number;
  @Field({ optional: true, type: () => [String] }) list?: string[];
  @Field({ optional: true, type: () => Inner }) inner?: Inner;
}

function issues(input: unknown): Array<[string, string]> {
  const parsed = tryParseToolArguments(Edge, input);
  if (parsed.ok) throw new Error(`expected a refusal, got ${JSON.stringify(parsed.value)}`);
  expect(parsed.error).toBeInstanceOf(ToolArgumentError);
  return parsed.error.issues.map((issue) => [issue.pointer, issue.keyword]);
}

afterEach(() => {
  expect(({} as any).polluted).toBeUndefined();
});

describe('parseToolArguments edge cases', () => {
  it('refuses `constructor.prototype` and a nested `__proto__` in JSON text', () => {
    expect(issues('{"constructor":{"prototype":{"polluted":1}}}')).toEqual([['/constructor', 'forbiddenKey']]);
    expect(issues('{"inner":{"v":"a","__proto__":{"polluted":1}}}')).toEqual([['/inner/__proto__', 'forbiddenKey']]);
  });

  it('escapes `~` and `/` in the JSON Pointers of unknown keys', () => {
    expect(issues('{"a~b/c":1}')).toEqual([['/a~0b~1c', 'additionalProperties']]);
    expect(issues({ inner: { v: 'x', 'p/q~r': 1 } })).toEqual([['/inner/p~1q~0r', 'additionalProperties']]);
  });

  it('keeps -0 and 1e308 as numbers; refuses 1e308 and non-finite values where an integer is declared', () => {
    const parsed = parseToolArguments(Edge, '{"n":-0,"i":-0}');
    expect(Object.is(parsed.n, -0)).toBe(true);
    expect(parseToolArguments(Edge, '{"n":1e308}').n).toBe(1e308);
    expect(issues('{"i":1e308}')).toEqual([['/i', 'maximum']]);
    expect(issues({ n: Number.POSITIVE_INFINITY, i: Number.NaN })).toEqual([
      ['/n', 'finite'],
      ['/i', 'finite'],
    ]);
  });

  it('refuses an array with holes and an array-like object', () => {
    // eslint-disable-next-line no-sparse-arrays -- the hole is the point
    expect(issues({ list: ['a', , 'c'] })).toEqual([['/list/1', 'json']]);
    expect(issues({ list: { 0: 'a', length: 1 } })).toEqual([['/list', 'type']]);
  });

  it('refuses Date, Buffer, Map and boxed values instead of coercing them', () => {
    expect(issues({ s: new Date(0), n: Buffer.from('1'), list: new Map(), inner: new String('x') })).toEqual([
      ['/s', 'json'],
      ['/n', 'json'],
      ['/list', 'json'],
      ['/inner', 'json'],
    ]);
  });

  it('accepts frozen and null-prototype objects, ignores symbol keys, and reads a getter once', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { s: 'a' });
    expect(parseToolArguments(Edge, bare)).toEqual(Object.assign(new Edge(), { s: 'a' }));
    const frozen = Object.freeze({ inner: Object.freeze({ v: 'b' }) });
    expect(parseToolArguments(Edge, frozen).inner).toBeInstanceOf(Inner);
    expect(parseToolArguments(Edge, { s: 'a', [Symbol('hidden')]: 1 })).toEqual(Object.assign(new Edge(), { s: 'a' }));
    let reads = 0;
    const parsed = parseToolArguments(Edge, {
      get s() {
        reads++;
        return `read ${reads}`;
      },
    });
    expect(parsed.s).toBe('read 1');
    expect(reads).toBe(1);
  });
});
