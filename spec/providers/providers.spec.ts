import { container, injectable, singleton } from 'tsyringe';
import { CompositeToolProvider, SharedToolInstanceError } from '../../lib/tools';
import {
  composeToolProviders,
  Field,
  ReflectedToolProvider,
  Tool,
  ToolProviderError,
  ToolRegistry,
  ScriptedModelClient,
} from '../../lib';
import { FunctionProvider } from '../runner/support';
import type { ToolOutcome } from '../../lib';

@injectable()
class WeatherService {
  readonly calls: string[] = [];
  temperatureOf(city: string): number {
    this.calls.push(city);
    return city.length * 3;
  }
}

@injectable()
@Tool({ description: 'Get the current weather for a city.' })
class GetWeather {
  @Field({ description: 'City name.' }) city!: string;
  constructor(private readonly service: WeatherService) {}
  invoke(): string {
    return `${this.city} is ${this.service.temperatureOf(this.city)} degrees.`;
  }
}

@Tool({ description: 'Echo.' })
class Echo {
  @Field() text!: string;
  invoke(context: { host?: unknown }): string {
    return `${this.text}:${String(context.host)}`;
  }
}

describe('ReflectedToolProvider', () => {
  it('lists descriptors and invokes classes with the host context; declares no capability', async () => {
    const provider = new ReflectedToolProvider([Echo], { context: 'tenant-a' });
    expect(provider.listTools().map((d) => d.name)).toEqual(['Echo']);
    expect(await provider.invoke('Echo', { text: 'hi' })).toEqual({ ok: true, text: 'hi:tenant-a' });
    expect(provider.capabilities('Echo')).toEqual({
      invocationContext: false,
      idempotencyKey: false,
      heartbeat: false,
      compensation: false,
    });
    expect((await provider.invoke('Nope', {})).error?.code).toBe('unknown_tool');
  });

  it('rejects two classes with one name', () => {
    @Tool({ name: 'Echo', description: 'again' })
    class EchoAgain {
      invoke(): void {}
      @Field() text!: string;
    }
    expect(() => new ReflectedToolProvider([Echo, EchoAgain])).toThrow(ToolProviderError);
  });
});

describe('ToolRegistry', () => {
  it('resolves each call from a tsyringe container: injected services, fields from arguments', async () => {
    const child = container.createChildContainer();
    const service = new WeatherService();
    child.registerInstance(WeatherService, service);
    const registry = new ToolRegistry([], { container: child }).register(GetWeather);
    const outcome = await registry.invoke('GetWeather', { city: 'Tokyo' });
    expect(outcome).toEqual({ ok: true, text: 'Tokyo is 15 degrees.' });
    expect(service.calls).toEqual(['Tokyo']);
  });

  it('works through the runner with bindTools', async () => {
    const child = container.createChildContainer();
    child.registerInstance(WeatherService, new WeatherService());
    const model = new ScriptedModelClient([
      { toolCalls: [{ name: 'GetWeather', arguments: '{"city":"Oslo"}' }] },
      { text: 'done' },
    ]);
    const result = await model.bindTools(new ToolRegistry([GetWeather], { container: child })).complete('weather?');
    expect(result.toolCalls[0].content).toBe('Oslo is 12 degrees.');
  });

  it('refuses a container that hands one instance to two concurrent calls', async () => {
    const shared = new Echo();
    const registry = new ToolRegistry([Echo], { container: { get: () => shared } });
    const [first, second] = await Promise.all([
      registry.invoke('Echo', { text: 'a' }),
      registry.invoke('Echo', { text: 'b' }),
    ]);
    expect(first.ok).toBe(true);
    expect(second.error?.message).toContain(new SharedToolInstanceError('Echo').message);
  });

  it('refuses a tsyringe singleton tool on its second call, so the arguments of one call never leak into the next', async () => {
    @singleton()
    @Tool({ description: 'd' })
    class Remember {
      @Field() city!: string;
      @Field({ optional: true }) note?: string;
      invoke(): string {
        return `${this.city}/${String(this.note)}`;
      }
    }
    const registry = new ToolRegistry([Remember], { container: container.createChildContainer() });
    expect(await registry.invoke('Remember', { city: 'Tokyo', note: 'secret' })).toEqual({
      ok: true,
      text: 'Tokyo/secret',
    });
    const second = await registry.invoke('Remember', { city: 'Oslo' });
    expect(second.ok).toBe(false);
    expect(second.error?.message).toContain(new SharedToolInstanceError('Remember').message);
    expect(second.error?.message).not.toContain('secret');
  });

  it('gives every call its own instance from a transient registration', async () => {
    @injectable()
    @Tool({ description: 'd' })
    class Fresh {
      @Field({ optional: true }) note?: string;
      invoke(): string {
        return String(this.note);
      }
    }
    const registry = new ToolRegistry([Fresh], { container: container.createChildContainer() });
    expect(await registry.invoke('Fresh', { note: 'first' })).toEqual({ ok: true, text: 'first' });
    expect(await registry.invoke('Fresh', {})).toEqual({ ok: true, text: 'undefined' });
  });

  it('constructs classes without a container', async () => {
    expect(await new ToolRegistry([Echo]).invoke('Echo', { text: 'x' })).toEqual({ ok: true, text: 'x:undefined' });
  });
});

describe('CompositeToolProvider', () => {
  it('keeps each provider, forwards capabilities per tool and routes compensation to the owner', async () => {
    const rich = new FunctionProvider({ compensation: true, idempotencyKey: true }).add('charge', () => 'charged');
    const reflected = new ReflectedToolProvider([Echo]);
    const composite = composeToolProviders(reflected, rich);
    expect(composite).toBeInstanceOf(CompositeToolProvider);
    expect(composite.listTools().map((d) => d.name)).toEqual(['Echo', 'charge']);
    expect(composite.capabilities('Echo').compensation).toBe(false);
    expect(composite.capabilities('charge')).toMatchObject({ compensation: true, idempotencyKey: true });
    const invocation = { toolName: 'charge', arguments: {}, signal: new AbortController().signal } as any;
    expect(await composite.compensate(invocation, { ok: false } as ToolOutcome)).toEqual({ ok: true });
    expect(rich.compensations).toHaveLength(1);
    expect((await composite.compensate({ ...invocation, toolName: 'Echo' }, { ok: false } as ToolOutcome)).ok).toBe(
      false,
    );
    expect(await composite.invokeTool({ ...invocation, toolName: 'Echo', arguments: { text: 'hey' } })).toEqual({
      ok: true,
      text: 'hey:undefined',
    });
  });

  it('follows a provider whose tool list changes later: lists and routes the new tool', async () => {
    const registry = new ToolRegistry();
    const composite = composeToolProviders(
      new FunctionProvider().add('first', () => 'one'),
      registry,
    );
    expect(composite.listTools().map((d) => d.name)).toEqual(['first']);
    expect(((await composite.invoke('Echo', { text: 'x' })) as { error?: { code: string } }).error?.code).toBe(
      'unknown_tool',
    );
    registry.register(Echo);
    expect(composite.listTools().map((d) => d.name)).toEqual(['first', 'Echo']);
    expect(composite.ownerOf('Echo')).toBe(registry);
    expect(await composite.invoke('Echo', { text: 'x' })).toEqual({ ok: true, text: 'x:undefined' });
  });

  it('rejects a name that becomes offered twice after a provider changed', () => {
    const registry = new ToolRegistry();
    const composite = composeToolProviders(
      new FunctionProvider().add('Echo', () => 'other'),
      registry,
    );
    registry.register(Echo);
    expect(() => composite.listTools()).toThrow(/tool 'Echo' is offered by two providers/);
  });

  it('rejects duplicate tool names and providers without an invoke form', () => {
    const a = new FunctionProvider().add('same', () => 1);
    const b = new FunctionProvider().add('same', () => 2);
    expect(() => composeToolProviders(a, b)).toThrow(/offered by two providers/);
    expect(() => composeToolProviders({ listTools: () => [] })).toThrow(
      expect.objectContaining({ code: 'invalid_provider' }),
    );
  });
});
