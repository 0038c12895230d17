import fc from 'fast-check';
import { Field, parseToolArguments, Tool, ToolArgumentError } from '../../lib';
import { tryParseToolArguments } from '../../lib/tools';
import { ValidationIssue } from '../../lib/validation';
import { decodeToolArguments } from '../../lib/validation/decode-arguments';

enum TemperatureUnit {
  Celsius = 'celsius',
  Fahrenheit = 'fahrenheit',
}

class Address {
  @Field() street!: string;
  @Field({ optional: true }) zip?: string;
}

@Tool({ description: 'Plan a trip.' })
class PlanTrip {
  @Field() city!: string;
  @Field({ enum: TemperatureUnit, default: TemperatureUnit.Celsius }) unit!: TemperatureUnit;
  @Field({ type: 'integer', default: 1 }) nights!: number;
  @Field({ optional: true }) note?: string;
  @Field({ type: () => Address, optional: true }) home?: Address;
  @Field({ type: () => [Address], optional: true }) stops?: Address[];
  @Field({ type: () => [String], optional: true }) tags?: string[];

  invoke(): string {
    return `${this.city}`;
  }
}

/** The error of a refused parse; fails the test when the parse succeeded. */
function refusal(input: unknown): ToolArgumentError {
  const parsed = tryParseToolArguments(PlanTrip, input);
  if (parsed.ok) throw new Error(`expected a refusal, got ${JSON.stringify(parsed.value)}`);
  expect(parsed.error).toBeInstanceOf(ToolArgumentError);
  return parsed.error;
}

function issueAt(error: ToolArgumentError, pointer: string): ValidationIssue | undefined {
  return error.issues.find((issue) => issue.pointer === pointer);
}

/** Builds an object nested `depth` levels deep with a loop (no recursion). */
function nestedObject(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 0; level < depth; level++) value = { inner: value };
  return value;
}

function millisecondsOf(action: () => void): number {
  const start = performance.now();
  action();
  return performance.now() - start;
}

afterEach(() => {
  expect(({} as any).polluted).toBeUndefined();
  expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
});

describe('parseToolArguments', () => {
  describe('valid input', () => {
    it('builds an instance with nested instances from JSON text', () => {
      const trip = parseToolArguments(
        PlanTrip,
        '{"city":"Tokyo","home":{"street":"Main"},"stops":[{"street":"A","zip":"1"},{"street":"B"}],"tags":["x","y"]}',
      );
      expect(trip).toBeInstanceOf(PlanTrip);
      expect(Object.getPrototypeOf(trip)).toBe(PlanTrip.prototype);
      expect(trip.city).toBe('Tokyo');
      expect(trip.home).toBeInstanceOf(Address);
      expect(trip.home!.street).toBe('Main');
      expect(trip.stops).toHaveLength(2);
      for (const stop of trip.stops!) expect(stop).toBeInstanceOf(Address);
      expect(trip.stops!.map((stop) => stop.street)).toEqual(['A', 'B']);
      expect(trip.stops![0].zip).toBe('1');
      expect(trip.tags).toEqual(['x', 'y']);
      expect(trip.invoke()).toBe('Tokyo');
    });

    it('builds the same instance from an object, without keeping references to the input', () => {
      const input = { city: 'Osaka', home: { street: 'Side' }, stops: [{ street: 'C' }] };
      const trip = parseToolArguments(PlanTrip, input);
      expect(trip).toBeInstanceOf(PlanTrip);
      expect(trip.home).toBeInstanceOf(Address);
      expect(trip.home).not.toBe(input.home);
      expect(trip.stops).not.toBe(input.stops);
      expect(trip.stops![0]).toBeInstanceOf(Address);
      expect(input).toEqual({ city: 'Osaka', home: { street: 'Side' }, stops: [{ street: 'C' }] });
      expect(Object.getPrototypeOf(input.home)).toBe(Object.prototype);
    });

    it('builds instances of a class that nests itself through a $ref', () => {
      class TreeNode {
        @Field() label!: string;
        @Field({ type: () => [TreeNode], optional: true, ref: true }) children?: TreeNode[];
        @Field({ type: () => TreeNode, optional: true, ref: true }) parentHint?: TreeNode | null;
      }
      @Tool({ description: 'Walk a tree.' })
      class WalkTree {
        invoke(): void {}
        @Field({ type: () => TreeNode, ref: true }) root!: TreeNode;
      }
      const tree = parseToolArguments(
        WalkTree,
        '{"root":{"label":"a","children":[{"label":"b","children":[{"label":"c"}]},{"label":"d"}]}}',
      );
      expect(tree.root).toBeInstanceOf(TreeNode);
      expect(tree.root.children!.map((child) => child.label)).toEqual(['b', 'd']);
      for (const child of tree.root.children!) expect(child).toBeInstanceOf(TreeNode);
      expect(tree.root.children![0].children![0]).toBeInstanceOf(TreeNode);
      expect(tree.root.children![0].children![0].label).toBe('c');
      expect(
        parseToolArguments(WalkTree, { root: { label: 'x', parentHint: { label: 'y' } } }).root.parentHint,
      ).toBeInstanceOf(TreeNode);
    });

    it('applies defaults and leaves optionals absent', () => {
      const trip = parseToolArguments(PlanTrip, '{"city":"Tokyo"}');
      expect(trip.unit).toBe(TemperatureUnit.Celsius);
      expect(trip.nights).toBe(1);
      for (const optional of ['note', 'home', 'stops', 'tags', 'zip']) expect(optional in trip).toBe(false);
      expect(Object.keys(trip).sort()).toEqual(['city', 'nights', 'unit']);
    });

    it('keeps a value the model gave over the default', () => {
      const trip = parseToolArguments(PlanTrip, { city: 'Tokyo', unit: 'fahrenheit', nights: 3 });
      expect(trip.unit).toBe(TemperatureUnit.Fahrenheit);
      expect(trip.nights).toBe(3);
    });

    it('returns ok results from tryParseToolArguments', () => {
      const parsed = tryParseToolArguments(PlanTrip, '{"city":"Kyoto"}');
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expect(parsed.value.city).toBe('Kyoto');
    });
  });

  describe('invalid_json', () => {
    it.each(['', '{', 'undefined', 'not json', '{"city":"Tokyo",}', "{'city':'Tokyo'}", '   '])(
      'refuses %j and never repairs it into {}',
      (text) => {
        const error = refusal(text);
        expect(error.code).toBe('invalid_json');
        expect(error.toolName).toBe('PlanTrip');
        expect(error.issues).toHaveLength(1);
        expect(error.issues[0]).toEqual({
          pointer: '',
          message: expect.stringContaining('not valid JSON'),
          keyword: 'json',
        });
      },
    );

    it('throws ToolArgumentError from parseToolArguments', () => {
      expect(() => parseToolArguments(PlanTrip, '{')).toThrow(ToolArgumentError);
      expect(() => parseToolArguments(PlanTrip, '{')).toThrow(
        expect.objectContaining({ code: 'invalid_json', name: 'ToolArgumentError' }),
      );
    });
  });

  describe('invalid_arguments', () => {
    it('lists every issue with pointer, message and keyword', () => {
      const error = refusal({
        unit: 'kelvin',
        nights: 'two',
        extra: true,
        stops: [{ street: 'A' }, { street: 7 }],
        tags: 'x',
      });
      expect(error.code).toBe('invalid_arguments');
      expect(issueAt(error, '/city')).toEqual({
        pointer: '/city',
        message: expect.stringContaining('city'),
        keyword: 'required',
      });
      expect(issueAt(error, '/unit')).toEqual({
        pointer: '/unit',
        message: expect.stringContaining('"celsius", "fahrenheit"'),
        keyword: 'enum',
      });
      expect(issueAt(error, '/nights')).toEqual({
        pointer: '/nights',
        message: expect.stringContaining('integer'),
        keyword: 'type',
      });
      expect(issueAt(error, '/extra')).toEqual({
        pointer: '/extra',
        message: "unknown property 'extra'",
        keyword: 'additionalProperties',
      });
      expect(issueAt(error, '/stops/1/street')).toEqual({
        pointer: '/stops/1/street',
        message: expect.stringContaining('string'),
        keyword: 'type',
      });
      expect(issueAt(error, '/tags')).toEqual({
        pointer: '/tags',
        message: expect.stringContaining('array'),
        keyword: 'type',
      });
      expect(issueAt(error, '/stops/0/street')).toBeUndefined();
      for (const issue of error.issues) expect(Object.keys(issue).sort()).toEqual(['keyword', 'message', 'pointer']);
      expect(error.message).toContain('/stops/1/street');
      expect(error.message).toContain("Invalid arguments for tool 'PlanTrip'");
    });

    it('reports a missing nested required property by pointer', () => {
      const error = refusal('{"city":"Tokyo","stops":[{"street":"A"},{"zip":"2"}]}');
      expect(error.issues).toEqual([{ pointer: '/stops/1/street', message: expect.any(String), keyword: 'required' }]);
    });

    it.each([
      ['an array', '[]'],
      ['a number', '42'],
      ['a string', '"Tokyo"'],
      ['true', 'true'],
      ['null', 'null'],
    ])('refuses %s as the root, as text', (_label, text) => {
      const error = refusal(text);
      expect(error.code).toBe('invalid_arguments');
      expect(error.issues).toEqual([{ pointer: '', message: 'arguments must be a JSON object', keyword: 'type' }]);
    });

    it.each([
      ['an array', [{ city: 'Tokyo' }]],
      ['a number', 42],
      ['null', null],
      ['undefined', undefined],
    ])('refuses %s as the root, as a value', (_label, value) => {
      const error = refusal(value);
      expect(error.code).toBe('invalid_arguments');
      expect(error.issues[0].pointer).toBe('');
    });
  });

  describe('hostile arguments', () => {
    it.each([
      ['__proto__ at the root', '{"city":"Tokyo","__proto__":{"polluted":true}}', '/__proto__'],
      ['constructor at the root', '{"city":"Tokyo","constructor":{"prototype":{"polluted":true}}}', '/constructor'],
      ['prototype at the root', '{"city":"Tokyo","prototype":{"polluted":true}}', '/prototype'],
      ['__proto__ nested', '{"city":"Tokyo","home":{"street":"A","__proto__":{"polluted":true}}}', '/home/__proto__'],
      [
        'constructor nested in an array',
        '{"city":"Tokyo","stops":[{"street":"A"},{"street":"B","constructor":{"polluted":1}}]}',
        '/stops/1/constructor',
      ],
      ['prototype nested', '{"city":"Tokyo","home":{"street":"A","prototype":{"polluted":true}}}', '/home/prototype'],
    ])('refuses %s in text', (_label, text, pointer) => {
      const error = refusal(text);
      expect(error.code).toBe('invalid_arguments');
      expect(issueAt(error, pointer)).toEqual({
        pointer,
        message: expect.stringContaining('not allowed'),
        keyword: 'forbiddenKey',
      });
      expect(Object.getPrototypeOf(PlanTrip.prototype)).toBe(Object.prototype);
      expect((PlanTrip.prototype as any).polluted).toBeUndefined();
      expect((Address.prototype as any).polluted).toBeUndefined();
    });

    it('refuses forbidden keys given as own properties of an object', () => {
      const root = JSON.parse('{"city":"Tokyo","__proto__":{"polluted":true}}');
      expect(issueAt(refusal(root), '/__proto__')?.keyword).toBe('forbiddenKey');
      const nested = { city: 'Tokyo', home: { street: 'A', ['__proto__']: { polluted: true } } };
      expect(Object.prototype.hasOwnProperty.call(nested.home, '__proto__')).toBe(true);
      expect(issueAt(refusal(nested), '/home/__proto__')?.keyword).toBe('forbiddenKey');
      expect(issueAt(refusal({ city: 'Tokyo', constructor: { polluted: true } }), '/constructor')?.keyword).toBe(
        'forbiddenKey',
      );
      expect(
        issueAt(refusal({ city: 'Tokyo', stops: [{ street: 'A', prototype: {} }] }), '/stops/0/prototype')?.keyword,
      ).toBe('forbiddenKey');
    });

    it('refuses an object whose prototype was swapped', () => {
      const error = refusal({ city: 'Tokyo', home: { __proto__: { polluted: true }, street: 'A' } });
      expect(error.code).toBe('invalid_arguments');
      expect(issueAt(error, '/home')?.keyword).toBe('json');
    });

    it('leaves a valid instance untouched by hostile keys elsewhere', () => {
      refusal('{"city":"Tokyo","__proto__":{"invoke":"hijacked"}}');
      const trip = parseToolArguments(PlanTrip, '{"city":"Tokyo"}');
      expect(typeof trip.invoke).toBe('function');
      expect(Object.getPrototypeOf(trip)).toBe(PlanTrip.prototype);
    });

    it('refuses 100,000 levels of nesting in text by the depth limit, fast', () => {
      const text = `{"city":"Tokyo","tags":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
      let error: ToolArgumentError | undefined;
      const elapsed = millisecondsOf(() => (error = refusal(text)));
      expect(error!.code).toBe('invalid_arguments');
      expect(error!.issues.some((issue) => issue.keyword === 'maxDepth')).toBe(true);
      expect(error!.message).toMatch(/nesting deeper than 64 levels/);
      expect(elapsed).toBeLessThan(2_000);
    });

    it('refuses 100,000 levels of nesting in an object by the depth limit, fast', () => {
      let error: ToolArgumentError | undefined;
      const input = { city: 'Tokyo', home: nestedObject(100_000) };
      const elapsed = millisecondsOf(() => (error = refusal(input)));
      expect(error!.code).toBe('invalid_arguments');
      expect(error!.issues).toEqual([
        {
          pointer: expect.stringMatching(/^\/home(\/inner){63,64}$/),
          message: expect.any(String),
          keyword: 'maxDepth',
        },
      ]);
      expect(elapsed).toBeLessThan(2_000);
    });

    it('accepts nesting right up to a configured depth and refuses one level more', () => {
      const limits = { maxDepth: 3, maxBytes: 1024 };
      expect(tryParseToolArguments(PlanTrip, '{"city":"T","stops":[{"street":"A"}]}', { limits }).ok).toBe(true);
      const deeper = tryParseToolArguments(PlanTrip, '{"city":"T","stops":[{"street":"A","zip":{"x":1}}]}', { limits });
      expect(deeper.ok).toBe(false);
      if (!deeper.ok) expect(deeper.error.issues[0].keyword).toBe('maxDepth');
    });

    it('refuses a lone surrogate written as a JSON escape', () => {
      const error = refusal('{"city":"\\ud800"}');
      expect(error.code).toBe('invalid_arguments');
      expect(error.issues).toEqual([
        { pointer: '/city', message: 'string contains a lone surrogate', keyword: 'wellFormed' },
      ]);
    });

    it('refuses raw lone surrogates in an object, in values and keys', () => {
      expect(issueAt(refusal({ city: 'Tok\udc00yo' }), '/city')?.keyword).toBe('wellFormed');
      expect(issueAt(refusal({ city: 'Tokyo', stops: [{ street: '\ud83d' }] }), '/stops/0/street')?.keyword).toBe(
        'wellFormed',
      );
      expect(refusal({ city: 'Tokyo', ['k\ud800']: 1 }).issues.some((issue) => issue.keyword === 'wellFormed')).toBe(
        true,
      );
      expect(parseToolArguments(PlanTrip, { city: 'Tokyo \ud83d\ude00' }).city).toBe('Tokyo \ud83d\ude00');
    });

    it('lists at most 20 issues for a value full of them, and counts the rest', () => {
      const lone = refusal({ city: 'Tokyo', tags: new Array<string>(10_000).fill('\ud800') });
      expect(lone.issues).toHaveLength(21);
      expect(lone.issues[0]).toEqual({
        pointer: '/tags/0',
        message: 'string contains a lone surrogate',
        keyword: 'wellFormed',
      });
      expect(lone.issues[19].pointer).toBe('/tags/19');
      expect(lone.issues[20]).toEqual({ pointer: '', message: '9980 more issues not listed', keyword: 'moreIssues' });
      const text = `{"city":"Tokyo","tags":[${new Array(10_000).fill('"\\udc00"').join(',')}]}`;
      expect(refusal(text).issues).toHaveLength(21);
      const wrongTypes = refusal(`{"city":"Tokyo","tags":[${new Array(1_000).fill('1').join(',')}]}`);
      expect(wrongTypes.issues).toHaveLength(21);
      expect(wrongTypes.issues[0]).toEqual({ pointer: '/tags/0', message: 'must be string', keyword: 'type' });
      expect(wrongTypes.issues[20]).toEqual({
        pointer: '',
        message: '980 more issues not listed',
        keyword: 'moreIssues',
      });
      const manyWrongTypes = refusal(`{"city":"Tokyo","tags":[${new Array(40_000).fill('1').join(',')}]}`);
      expect(manyWrongTypes.issues.map((issue) => issue.keyword)).toEqual(['type', 'moreIssues']);
      expect(wrongTypes.message.length).toBeLessThan(5_000);
    });

    it('refuses 1e400 in text (parsed as Infinity) as not finite', () => {
      const error = refusal('{"city":"Tokyo","nights":1e400}');
      expect(error.issues).toEqual([{ pointer: '/nights', message: 'number must be finite', keyword: 'finite' }]);
    });

    it.each([NaN, Infinity, -Infinity])('refuses %p in an object', (value) => {
      const error = refusal({ city: 'Tokyo', nights: value });
      expect(error.code).toBe('invalid_arguments');
      expect(issueAt(error, '/nights')?.keyword).toBe('finite');
    });

    it('refuses an integer beyond the safe range where an integer is declared', () => {
      const error = refusal('{"city":"Tokyo","nights":9007199254740993}');
      expect(error.code).toBe('invalid_arguments');
      expect(issueAt(error, '/nights')?.keyword).toBe('maximum');
      expect(issueAt(refusal({ city: 'Tokyo', nights: -(2 ** 53) - 2 }), '/nights')?.keyword).toBe('minimum');
      expect(parseToolArguments(PlanTrip, { city: 'Tokyo', nights: 9007199254740991 }).nights).toBe(9007199254740991);
    });

    it('refuses a 50 MB string in text by the size limit within a few seconds', () => {
      const text = `{"city":"${'a'.repeat(50 * 1024 * 1024)}"}`;
      let error: ToolArgumentError | undefined;
      const elapsed = millisecondsOf(() => (error = refusal(text)));
      expect(error!.code).toBe('invalid_arguments');
      expect(error!.issues).toEqual([{ pointer: '', message: expect.stringContaining('exceed'), keyword: 'maxBytes' }]);
      expect(error!.message.length).toBeLessThan(1_000);
      expect(elapsed).toBeLessThan(3_000);
    });

    it('refuses a 50 MB string in an object by the size limit within a few seconds', () => {
      const input = { city: 'Tokyo', note: 'b'.repeat(50 * 1024 * 1024) };
      let error: ToolArgumentError | undefined;
      const elapsed = millisecondsOf(() => (error = refusal(input)));
      expect(error!.issues.some((issue) => issue.keyword === 'maxBytes')).toBe(true);
      expect(error!.message.length).toBeLessThan(1_000);
      expect(elapsed).toBeLessThan(3_000);
    });

    it('counts UTF-8 bytes of text, not characters', () => {
      const limits = { maxDepth: 8, maxBytes: 64 };
      const text = `{"city":"${'東'.repeat(20)}"}`;
      expect(text.length).toBeLessThan(64);
      const parsed = tryParseToolArguments(PlanTrip, text, { limits });
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error.issues[0].keyword).toBe('maxBytes');
    });

    it.each([
      ['a class instance', new Address()],
      ['a Date', new Date(0)],
      ['a Map', new Map()],
      ['a function', () => 'Tokyo'],
      ['a BigInt', BigInt(1)],
      ['a symbol', Symbol('s')],
    ])('refuses %s as a value', (_label, value) => {
      const error = refusal({ city: 'Tokyo', home: value });
      expect(error.code).toBe('invalid_arguments');
      expect(issueAt(error, '/home')).toEqual({
        pointer: '/home',
        message: expect.stringContaining('not a JSON value'),
        keyword: 'json',
      });
    });

    it('refuses a raw lone surrogate and escaped forbidden keys in text', () => {
      expect(refusal('{"city":"Tok\udc00yo"}').issues).toEqual([
        { pointer: '/city', message: 'string contains a lone surrogate', keyword: 'wellFormed' },
      ]);
      expect(issueAt(refusal('{"city":"Tokyo","\\u005f_proto__":{"polluted":true}}'), '/__proto__')?.keyword).toBe(
        'forbiddenKey',
      );
      expect(issueAt(refusal('{"city":"Tokyo","c\\u006fnstructor":{}}'), '/constructor')?.keyword).toBe('forbiddenKey');
      expect(issueAt(refusal('{"city":"Tokyo","nights":-1E+0400}'), '/nights')?.keyword).toBe('finite');
      expect(issueAt(refusal(`{"city":"Tokyo","nights":1${'0'.repeat(400)}}`), '/nights')?.keyword).toBe('finite');
    });

    it('accepts text that only mentions the hostile words in values', () => {
      const trip = parseToolArguments(
        PlanTrip,
        '{"city":"constructor __proto__ prototype \\u0041","nights":1e2,"note":"😀"}',
      );
      expect(trip.city).toBe('constructor __proto__ prototype A');
      expect(trip.nights).toBe(100);
      expect(trip.note).toBe('😀');
    });

    it('refuses an object whose getter or proxy trap throws, without throwing', () => {
      const withGetter = { city: 'Tokyo' };
      Object.defineProperty(withGetter, 'note', {
        enumerable: true,
        get: () => {
          throw new Error('getter ran');
        },
      });
      expect(refusal(withGetter).issues).toEqual([
        { pointer: '', message: expect.stringContaining('getter ran'), keyword: 'json' },
      ]);
      const trap = new Proxy(
        { city: 'Tokyo' },
        {
          getPrototypeOf: () => {
            throw new Error('trap ran');
          },
        },
      );
      expect(refusal(trap).issues[0].message).toContain('trap ran');
    });

    it('refuses a class instance or a function as the root', () => {
      expect(refusal(new PlanTrip()).issues[0]).toMatchObject({ pointer: '', keyword: 'json' });
      expect(refusal(() => ({ city: 'Tokyo' })).issues[0]).toMatchObject({ pointer: '', keyword: 'json' });
    });
  });

  describe('text and object inputs', () => {
    const hostileKeys = [
      'city',
      'unit',
      'nights',
      'home',
      'street',
      'stops',
      '__proto__',
      'constructor',
      'prototype',
      'k\ud800',
      '😀',
    ];
    const hostileStrings = [
      'Tokyo',
      'celsius',
      '\ud800',
      'a\udc00b',
      '😀',
      '\\u0041',
      'constructor',
      '__proto__',
      'HUGE',
      '東京',
    ];
    const { value: jsonish } = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        tie('leaf'),
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(fc.constantFrom(...hostileKeys), tie('value'), { maxKeys: 4 }),
      ),
      leaf: fc.oneof(
        fc.constantFrom(...hostileStrings),
        fc.integer(),
        fc.double(),
        fc.constantFrom(1e308, 2 ** 53 + 2),
        fc.boolean(),
        fc.constant(null),
      ),
    }));

    /** JSON text of a value, with some lone surrogates left raw and some numbers made to overflow. */
    const argumentText = fc
      .tuple(jsonish, fc.boolean(), fc.constantFrom('1e400', '-1E+400', `1${'0'.repeat(310)}`, '12'))
      .map(([value, rawSurrogates, huge]) => {
        let text = JSON.stringify({ city: 'Tokyo', extra: value }).replaceAll('"HUGE"', huge);
        if (rawSurrogates) text = text.replace(/\\ud[89ab][0-9a-f]{2}/g, '\ud800');
        return text;
      });

    it('get the same verdict and the same issues', () => {
      const limits = { maxDepth: 4, maxBytes: 100_000 };
      fc.assert(
        fc.property(argumentText, (text) => {
          const fromText = tryParseToolArguments(PlanTrip, text, { limits });
          const fromObject = tryParseToolArguments(PlanTrip, JSON.parse(text), { limits });
          expect(fromText.ok).toBe(fromObject.ok);
          if (!fromText.ok && !fromObject.ok) {
            expect(fromText.error.code).toBe(fromObject.error.code);
            expect(fromText.error.issues).toEqual(fromObject.error.issues);
          }
        }),
        { numRuns: 2_000 },
      );
    });
  });
});

describe('parseToolArguments across realms', () => {
  it('accepts plain objects created in another realm (vm context)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const vm = require('node:vm') as typeof import('node:vm');
    const foreign = vm.runInNewContext('({ city: "Oslo" })') as object;
    expect(Object.getPrototypeOf(foreign)).not.toBe(Object.prototype);
    expect(decodeToolArguments(foreign)).toEqual({ ok: true, value: { city: 'Oslo' } });
    expect(decodeToolArguments(vm.runInNewContext('new (class Point { constructor() { this.x = 1; } })()')).ok).toBe(
      false,
    );
  });
});
