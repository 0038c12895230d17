import 'reflect-metadata';
import { composeToolProviders, ToolRegistry, Field, Tool } from '../../lib';
import { ToolsChangedEmitter } from '../../lib/tools';

@Tool({ description: 'First.' })
class First {
  @Field() text!: string;
  invoke(): string {
    return this.text;
  }
}

@Tool({ description: 'Second.' })
class Second {
  @Field() text!: string;
  invoke(): string {
    return this.text;
  }
}

describe('onToolsChanged', () => {
  it('is called by ToolRegistry.register (not for nothing), forwarded by composites, and stops when unsubscribed', () => {
    const registry = new ToolRegistry([First]);
    const composite = composeToolProviders(registry);
    const heard: string[] = [];
    const stop = registry.onToolsChanged(() => heard.push(`registry:${registry.listTools().length}`));
    composite.onToolsChanged(() => heard.push(`composite:${composite.listTools().length}`));
    registry.register();
    expect(heard).toEqual([]);
    registry.register(Second);
    expect(heard.sort()).toEqual(['composite:2', 'registry:2']);
    stop();
    expect(() => registry.register(First)).toThrow(/two tool classes are named 'First'/);
    expect(heard).toEqual(['composite:2', 'registry:2']);
  });

  it('calls every listener when one throws, then rethrows the first error', () => {
    const emitter = new ToolsChangedEmitter();
    const heard: number[] = [];
    emitter.subscribe(() => {
      throw new Error('first');
    });
    emitter.subscribe(() => heard.push(2));
    expect(() => emitter.emit()).toThrow('first');
    expect(heard).toEqual([2]);
    expect(emitter.size).toBe(2);
  });
});
