import { Field, Tool, ToolFailureError, ToolOutcome } from '../../lib';
import { invokeReflectedTool } from '../../lib/tools';

class Stop {
  @Field() street!: string;
}

/** A tool whose result is chosen by the `mode` argument; counts its calls. */
@Tool({ description: 'Returns what the mode says.' })
class Echo {
  static calls = 0;
  static lastContext: unknown = 'never called';

  @Field({
    enum: [
      'text',
      'object',
      'array',
      'number',
      'undefined',
      'outcome',
      'bigint',
      'cycle',
      'throw',
      'throw-string',
      'fail',
      'date',
    ],
  })
  mode!: string;
  @Field({ type: () => [Stop], optional: true }) stops?: Stop[];

  invoke(context?: unknown): unknown {
    Echo.calls++;
    Echo.lastContext = context;
    switch (this.mode) {
      case 'text':
        return `${this.stops?.length ?? 0} stops`;
      case 'object':
        return { stops: this.stops?.map((stop) => stop.street) ?? [], first: this.stops?.[0] instanceof Stop };
      case 'array':
        return [1, 'two', null];
      case 'number':
        return 42;
      case 'undefined':
        return undefined;
      case 'outcome':
        return {
          ok: false,
          error: { code: 'quota_exceeded', category: 'rate_limited', message: 'slow down', retryable: true },
        };
      case 'bigint':
        return { value: BigInt(1) };
      case 'cycle': {
        const node: Record<string, unknown> = { name: 'loop' };
        node.self = node;
        return node;
      }
      case 'throw':
        throw new Error('database is down');
      case 'throw-string':
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a tool may throw anything
        throw 'plain string thrown';
      case 'fail':
        throw new ToolFailureError({ code: 'not_found', message: 'no such city', retryable: false });
      case 'date':
        return { at: new Date(0) };
      default:
        return 'unreachable';
    }
  }
}

beforeEach(() => {
  Echo.calls = 0;
  Echo.lastContext = 'never called';
});

describe('invokeReflectedTool', () => {
  describe('serialization of results', () => {
    it('turns a string into a text success', async () => {
      await expect(invokeReflectedTool(Echo, '{"mode":"text","stops":[{"street":"A"}]}')).resolves.toEqual({
        ok: true,
        text: '1 stops',
      });
    });

    it('turns an object into a structured success, built from nested instances', async () => {
      const outcome = await invokeReflectedTool(Echo, { mode: 'object', stops: [{ street: 'A' }, { street: 'B' }] });
      expect(outcome).toEqual({ ok: true, data: { stops: ['A', 'B'], first: true } });
      expect(outcome.text).toBeUndefined();
    });

    it('turns an array and a number into structured successes', async () => {
      await expect(invokeReflectedTool(Echo, { mode: 'array' })).resolves.toEqual({ ok: true, data: [1, 'two', null] });
      await expect(invokeReflectedTool(Echo, { mode: 'number' })).resolves.toEqual({ ok: true, data: 42 });
    });

    it('turns undefined into an empty text success', async () => {
      await expect(invokeReflectedTool(Echo, { mode: 'undefined' })).resolves.toEqual({ ok: true, text: '' });
    });

    it('serializes values with toJSON such as a Date', async () => {
      await expect(invokeReflectedTool(Echo, { mode: 'date' })).resolves.toEqual({
        ok: true,
        data: { at: '1970-01-01T00:00:00.000Z' },
      });
    });

    it('returns a ToolOutcome literal as is', async () => {
      await expect(invokeReflectedTool(Echo, { mode: 'outcome' })).resolves.toEqual({
        ok: false,
        error: { code: 'quota_exceeded', category: 'rate_limited', message: 'slow down', retryable: true },
      });
    });

    it('fills a literal failure that left out category and retryable from the standard code table', async () => {
      @Tool({ description: 'd' })
      class Literal {
        invoke(): ToolOutcome {
          return { ok: false, error: { code: 'timeout', message: 'too slow' } as any };
        }
      }
      await expect(invokeReflectedTool(Literal, {})).resolves.toEqual({
        ok: false,
        error: { code: 'timeout', category: 'timeout', message: 'too slow', retryable: true },
      });
    });

    it.each(['bigint', 'cycle'])('turns a returned %s into a tool_error failure, never a rejection', async (mode) => {
      const outcome = await invokeReflectedTool(Echo, { mode });
      expect(outcome.ok).toBe(false);
      expect(outcome.error).toMatchObject({ code: 'tool_error', category: 'internal', retryable: false });
      expect(outcome.error!.message).toMatch(/not JSON/);
    });
  });

  describe('async and context', () => {
    it('awaits an async invoke', async () => {
      @Tool({ description: 'd' })
      class Slow {
        @Field() city!: string;
        async invoke(): Promise<{ city: string }> {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { city: this.city };
        }
      }
      await expect(invokeReflectedTool(Slow, '{"city":"Tokyo"}')).resolves.toEqual({
        ok: true,
        data: { city: 'Tokyo' },
      });
    });

    it('passes the context to invoke(context)', async () => {
      const context = { userId: 'u-1' };
      await invokeReflectedTool(Echo, { mode: 'text' }, context);
      expect(Echo.lastContext).toBe(context);
      await invokeReflectedTool(Echo, { mode: 'text' });
      expect(Echo.lastContext).toBeUndefined();
    });

    it('uses the instantiate option to create the instance', async () => {
      const made: object[] = [];
      const outcome = await invokeReflectedTool(Echo, { mode: 'number' }, undefined, {
        instantiate: (target) => {
          const instance = new (target as new () => object)();
          made.push(instance);
          return instance;
        },
      });
      expect(outcome).toEqual({ ok: true, data: 42 });
      expect(made).toHaveLength(1);
      expect(made[0]).toBeInstanceOf(Echo);
    });
  });

  describe('failures', () => {
    it('turns a thrown Error into an internal failure keeping the message', async () => {
      await expect(invokeReflectedTool(Echo, { mode: 'throw' })).resolves.toEqual({
        ok: false,
        error: { code: 'tool_error', category: 'internal', message: 'database is down', retryable: false },
      });
    });

    it('turns a thrown non-Error into an internal failure', async () => {
      const outcome = await invokeReflectedTool(Echo, { mode: 'throw-string' });
      expect(outcome.error).toMatchObject({ code: 'tool_error', category: 'internal', message: 'plain string thrown' });
    });

    it('turns a rejected promise into an internal failure', async () => {
      @Tool({ description: 'd' })
      class Rejects {
        async invoke(): Promise<string> {
          await Promise.resolve();
          throw new Error('rejected late');
        }
      }
      await expect(invokeReflectedTool(Rejects, {})).resolves.toMatchObject({
        ok: false,
        error: { category: 'internal', message: 'rejected late' },
      });
    });

    it('turns ToolFailureError into its code, category and retryability', async () => {
      await expect(invokeReflectedTool(Echo, { mode: 'fail' })).resolves.toEqual({
        ok: false,
        error: { code: 'not_found', category: 'not_found', message: 'no such city', retryable: false },
      });
      @Tool({ description: 'd' })
      class Busy {
        invoke(): never {
          throw new ToolFailureError({ code: 'upstream_busy', category: 'unavailable', message: 'try later' });
        }
      }
      await expect(invokeReflectedTool(Busy, {})).resolves.toEqual({
        ok: false,
        error: { code: 'upstream_busy', category: 'unavailable', message: 'try later', retryable: true },
      });
    });

    it('refuses bad arguments with invalid_arguments and every issue, without calling invoke', async () => {
      const outcome = await invokeReflectedTool(Echo, { mode: 'shout', extra: 1, stops: [{ street: 1 }] });
      expect(Echo.calls).toBe(0);
      expect(outcome.ok).toBe(false);
      expect(outcome.error).toMatchObject({ code: 'invalid_arguments', category: 'validation', retryable: false });
      const issues = (
        outcome.error!.details as { issues: Array<{ pointer: string; keyword: string; message: string }> }
      ).issues;
      expect(issues.map((issue) => [issue.pointer, issue.keyword]).sort()).toEqual([
        ['/extra', 'additionalProperties'],
        ['/mode', 'enum'],
        ['/stops/0/street', 'type'],
      ]);
      for (const issue of issues) expect(typeof issue.message).toBe('string');
    });

    it('refuses argument text that is not JSON with invalid_json, without calling invoke', async () => {
      for (const text of ['', '{', 'undefined']) {
        const outcome = await invokeReflectedTool(Echo, text);
        expect(outcome.error).toMatchObject({ code: 'invalid_json', category: 'validation', retryable: false });
        expect(outcome.error!.details).toEqual({ issues: [expect.objectContaining({ pointer: '', keyword: 'json' })] });
      }
      expect(Echo.calls).toBe(0);
    });

    it('refuses hostile arguments without calling invoke', async () => {
      const outcome = await invokeReflectedTool(Echo, '{"mode":"text","__proto__":{"polluted":true}}');
      expect(outcome.error?.code).toBe('invalid_arguments');
      expect(Echo.calls).toBe(0);
      expect(({} as any).polluted).toBeUndefined();
    });

    it('calls invoke once for good arguments', async () => {
      await invokeReflectedTool(Echo, '{"mode":"number"}');
      expect(Echo.calls).toBe(1);
    });

    it('fails a tool class without invoke(), without reaching it', async () => {
      // @ts-expect-error: the compiler refuses a @Tool class without invoke()
      @Tool({ description: 'd' })
      class NoInvoke {
        @Field() city!: string;
      }
      const outcome = await invokeReflectedTool(NoInvoke, { city: 'Tokyo' });
      expect(outcome.error).toMatchObject({ code: 'tool_error', category: 'internal' });
      expect(outcome.error!.message).toMatch(/NoInvoke: a tool class needs an invoke\(\) method/);
    });

    it('fails, never rejects, for a class that is not a tool', async () => {
      class NotATool {
        invoke(): string {
          return 'x';
        }
      }
      const outcome = await invokeReflectedTool(NotATool, {});
      expect(outcome.ok).toBe(false);
      expect(outcome.error!.message).toMatch(/not a tool class/);
    });
  });
});
