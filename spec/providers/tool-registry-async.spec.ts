import { Field, Tool, ToolRegistry } from '../../lib';
import { SharedToolInstanceError, ToolContainerError } from '../../lib/tools';

class Greeter {
  greet(name: string): string {
    return `hello ${name}`;
  }
}

@Tool({ description: 'Greets someone through an injected service.' })
class Greet {
  @Field() name!: string;
  constructor(readonly greeter: Greeter) {}
  invoke(): string {
    return this.greeter.greet(this.name);
  }
}

/** A container whose resolve answers a Promise, as NestJS's ModuleRef.resolve does. */
function asyncContainer(make: (target: Function) => object) {
  const resolved: object[] = [];
  return {
    resolved,
    resolve: async (target: Function) => {
      await new Promise((done) => setImmediate(done));
      const instance = make(target);
      resolved.push(instance);
      return instance;
    },
  };
}

describe('ToolRegistry with an asynchronous container', () => {
  it('awaits resolve(Class): constructor-injected services work and each call gets a fresh instance', async () => {
    const container = asyncContainer(() => new Greet(new Greeter()));
    const registry = new ToolRegistry([Greet], { container });
    const [first, second] = await Promise.all([
      registry.invoke('Greet', { name: 'Ada' }),
      registry.invoke('Greet', { name: 'Bob' }),
    ]);
    expect(first).toEqual({ ok: true, text: 'hello Ada' });
    expect(second).toEqual({ ok: true, text: 'hello Bob' });
    expect(container.resolved).toHaveLength(2);
  });

  it('refuses a shared instance from an asynchronous container too', async () => {
    const shared = new Greet(new Greeter());
    const registry = new ToolRegistry([Greet], { container: { resolve: () => Promise.resolve(shared) } });
    expect((await registry.invoke('Greet', { name: 'a' })).ok).toBe(true);
    const second = await registry.invoke('Greet', { name: 'b' });
    expect(second.error?.message).toContain(new SharedToolInstanceError('Greet').message);
  });

  it('validates the arguments before resolving: bad input resolves and runs nothing', async () => {
    const container = asyncContainer(() => new Greet(new Greeter()));
    const registry = new ToolRegistry([Greet], { container });
    const outcome = await registry.invoke('Greet', { name: 3 });
    expect(outcome.error?.code).toBe('invalid_arguments');
    expect(container.resolved).toHaveLength(0);
  });
});

describe('ToolRegistry.checkContainer', () => {
  it('passes a container that hands out fresh instances of each class', async () => {
    await expect(
      new ToolRegistry([Greet], { container: asyncContainer(() => new Greet(new Greeter())) }).checkContainer(),
    ).resolves.toBeUndefined();
    await expect(new ToolRegistry([Greet]).checkContainer()).resolves.toBeUndefined();
  });

  it('reports a singleton registration before any call', async () => {
    const shared = new Greet(new Greeter());
    const check = new ToolRegistry([Greet], { container: { get: () => shared } }).checkContainer();
    await expect(check).rejects.toThrow(SharedToolInstanceError);
  });

  it('reports a class the container cannot resolve, with the container error as cause', async () => {
    const failure = new Error('Nest could not find Greet element');
    const check = new ToolRegistry([Greet], { container: { resolve: () => Promise.reject(failure) } }).checkContainer();
    await expect(check).rejects.toThrow(ToolContainerError);
    await expect(check).rejects.toMatchObject({
      code: 'unresolvable_tool',
      cause: failure,
      message: expect.stringContaining('Greet'),
    });
    const wrong = new ToolRegistry([Greet], { container: { get: () => new Greeter() } }).checkContainer();
    await expect(wrong).rejects.toMatchObject({ code: 'unresolvable_tool' });
  });
});
