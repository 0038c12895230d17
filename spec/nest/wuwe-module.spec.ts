import { Injectable, Module, Scope } from '@nestjs/common';
import { Test, TestingModule } from '@nestjs/testing';
import { Field, LlmAgentRunner, MemoryRunStore, ScriptedModelClient, Tool, ToolRegistry } from '../../lib';
import { SharedToolInstanceError, ToolContainerError } from '../../lib/tools';
import { WUWE_RUN_STORE, WuweModule } from '../../lib/nest';
import { AgentController } from '../../samples/05-nest/agent.controller';
import { AppModule } from '../../samples/05-nest/app.module';
import { main, scriptedWeatherModel } from '../../samples/05-nest/main';

@Injectable()
class Counter {
  private count = 0;
  next(): number {
    return ++this.count;
  }
}

@Injectable({ scope: Scope.TRANSIENT })
@Tool({ description: 'Numbers a label with an injected counter.' })
class NumberLabel {
  @Field() label!: string;
  constructor(private readonly counter: Counter) {}
  invoke(): string {
    return `${this.label}#${this.counter.next()}`;
  }
}

@Module({ providers: [Counter, NumberLabel] })
class LabelModule {}

@Injectable({ scope: Scope.REQUEST })
@Tool({ description: 'A request-scoped tool.' })
class Stamp {
  @Field() text!: string;
  constructor(private readonly counter: Counter) {}
  invoke(): string {
    return `${this.text}@${this.counter.next()}`;
  }
}

@Tool({ description: 'Registered as a singleton by mistake.' })
@Injectable()
class SingletonTool {
  @Field() text!: string;
  invoke(): string {
    return this.text;
  }
}

@Tool({ description: 'Never registered as a provider.' })
class Unregistered {
  @Field() text!: string;
  invoke(): string {
    return this.text;
  }
}

async function start(
  imports: NonNullable<Parameters<typeof Test.createTestingModule>[0]['imports']>,
): Promise<TestingModule> {
  const module = await Test.createTestingModule({ imports })
    .setLogger(false as never)
    .compile();
  return module.init();
}

describe('samples/05-nest (with @nestjs/testing)', () => {
  it('runs the agent from the controller, with the DI-injected tool, and records the run in the injected store', async () => {
    const store = new MemoryRunStore();
    const module = await start([AppModule.withModel(scriptedWeatherModel(), store)]);
    const answer = await module.get(AgentController).ask({ prompt: 'How warm is it in Tokyo?' });
    expect(answer.text).toBe('From the tool: Tokyo is 22 degrees.');
    expect(answer.toolCalls).toEqual([{ tool: 'GetWeather', content: 'Tokyo is 22 degrees.' }]);
    expect(module.get(WUWE_RUN_STORE)).toBe(store);
    expect((await store.loadRun(answer.runId))?.status).toBe('completed');
    await module.close();
    await expect(store.loadRun(answer.runId)).rejects.toMatchObject({ code: 'store_closed' });
  });

  it('gives each call its own tool instance: two calls of one turn keep their own arguments', async () => {
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { name: 'GetWeather', arguments: { city: 'Tokyo' } },
          { name: 'GetWeather', arguments: { city: 'Oslo' } },
        ],
      },
      { text: 'done' },
    ]);
    const module = await start([AppModule.withModel(model)]);
    try {
      const answer = await module.get(AgentController).ask({ prompt: 'Tokyo and Oslo?' });
      expect(answer.toolCalls.map((call) => call.content)).toEqual(['Tokyo is 22 degrees.', 'Oslo is 4 degrees.']);
    } finally {
      await module.close();
    }
  });

  it('runs as a program (main)', async () => {
    const printed: string[] = [];
    const answer = await main((line) => printed.push(line));
    expect(printed).toEqual(['From the tool: Tokyo is 22 degrees.']);
    expect(answer.toolCalls).toHaveLength(1);
  });
});

describe('WuweModule.forRoot', () => {
  it('discovers @Tool classes registered as Nest providers and makes the runner and the registry injectable', async () => {
    const module = await start([WuweModule.forRoot({ model: new ScriptedModelClient([]) }), LabelModule]);
    try {
      const runner = module.get(LlmAgentRunner);
      expect(runner.provider).toBe(module.get(ToolRegistry));
      expect(runner.provider.listTools().map((tool) => tool.name)).toEqual(['NumberLabel']);
      const first = await runner.invokeToolCall({ id: 'a', name: 'NumberLabel', arguments: { label: 'x' } });
      const second = await runner.invokeToolCall({ id: 'b', name: 'NumberLabel', arguments: { label: 'y' } });
      expect([first.content, second.content]).toEqual(['x#1', 'y#2']);
    } finally {
      await module.close();
    }
  });

  it('resolves request-scoped tools with a fresh instance per call', async () => {
    @Module({ providers: [Counter, Stamp] })
    class StampModule {}
    const module = await start([WuweModule.forRoot({ model: new ScriptedModelClient([]) }), StampModule]);
    try {
      const runner = module.get(LlmAgentRunner);
      const results = await Promise.all(
        ['a', 'b'].map((text) => runner.invokeToolCall({ id: text, name: 'Stamp', arguments: { text } })),
      );
      expect(results[0].content).toMatch(/^a@[12]$/);
      expect(results[1].content).toMatch(/^b@[12]$/);
      expect(results[0].content).not.toBe(results[1].content.replace('b', 'a'));
    } finally {
      await module.close();
    }
  });

  it('fails the start when a tool class is registered as a singleton', async () => {
    @Module({ providers: [SingletonTool] })
    class Misregistered {}
    await expect(start([WuweModule.forRoot({ model: new ScriptedModelClient([]) }), Misregistered])).rejects.toThrow(
      SharedToolInstanceError,
    );
  });

  it('fails the start when a listed tool class cannot be resolved', async () => {
    const starting = start([
      WuweModule.forRoot({ model: new ScriptedModelClient([]), tools: [Unregistered], discover: false }),
    ]);
    await expect(starting).rejects.toThrow(ToolContainerError);
    await expect(starting).rejects.toThrow(/Unregistered/);
  });
});

describe('a Nest-provided agent as a tool of another agent', () => {
  it("runs the injected runner's child run with tools from Nest's container, under a contract derived from them", async () => {
    const model = new ScriptedModelClient(
      [
        (messages) =>
          messages.some((message) => message.role === 'tool')
            ? { text: `numbered: ${messages.flatMap((m) => (m.role === 'tool' ? [m.content] : [])).join(', ')}` }
            : { toolCalls: [{ id: 'n1', name: 'NumberLabel', arguments: { label: 'box' } }] },
      ],
      { whenExhausted: 'repeat' },
    );
    const module = await start([WuweModule.forRoot({ model }), LabelModule]);
    try {
      const numbering = module.get(LlmAgentRunner).asTool({ name: 'numbering', description: 'Numbers labels.' });
      const [descriptor] = numbering.listTools();
      // Derived from the Nest-provided tools the child runner has (NumberLabel, under the default contract).
      const [child] = module.get(LlmAgentRunner).provider.listTools();
      expect(descriptor).toMatchObject({ name: 'numbering', sideEffect: child.sideEffect, approval: child.approval });
      const parentModel = new ScriptedModelClient([
        { toolCalls: [{ id: 'd1', name: 'numbering', arguments: { prompt: 'number the box' } }] },
        (messages) => {
          const last = messages.at(-1);
          return { text: `parent: ${last?.role === 'tool' ? last.content : ''}` };
        },
      ]);
      const store = new MemoryRunStore();
      const result = await new LlmAgentRunner(parentModel, numbering).complete('go', { store });
      expect(result.toolCalls[0].outcome).toMatchObject({ ok: true });
      expect(result.text).toContain('numbered: box#1');
      // The child run went into the parent's store, and Nest's injected counter numbered the label once.
      expect((await store.listRuns()).map((run) => run.runId)).toHaveLength(2);
      const second = await module
        .get(LlmAgentRunner)
        .invokeToolCall({ id: 'b', name: 'NumberLabel', arguments: { label: 'y' } });
      expect(second.content).toBe('y#2');
    } finally {
      await module.close();
    }
  });
});
