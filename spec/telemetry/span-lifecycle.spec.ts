import { Context } from '@opentelemetry/api';
import { BasicTracerProvider, ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { LlmAgentRunner, ScriptedModelClient } from '../../lib';
import { createTelemetry, Telemetry } from '../../lib/telemetry';
import { FunctionProvider } from '../runner/support';

/** A span processor that records every span started and every span ended, in order. */
class LifecycleRecorder implements SpanProcessor {
  readonly started: Span[] = [];
  readonly ended: ReadableSpan[] = [];
  onStart(span: Span, _parentContext: Context): void {
    this.started.push(span);
  }
  onEnd(span: ReadableSpan): void {
    this.ended.push(span);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
  /** The names of the spans started and not ended. */
  open(): string[] {
    return this.started.filter((span) => !this.ended.includes(span)).map((span) => span.name);
  }
  named(name: string): ReadableSpan[] {
    return this.ended.filter((span) => span.name === name);
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let recorder: LifecycleRecorder;
let tracerProvider: BasicTracerProvider;
let meterProvider: MeterProvider;
let metricExporter: InMemoryMetricExporter;
let reader: PeriodicExportingMetricReader;
let telemetry: Telemetry;

beforeEach(() => {
  recorder = new LifecycleRecorder();
  tracerProvider = new BasicTracerProvider({ spanProcessors: [recorder] });
  metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  meterProvider = new MeterProvider({ readers: [reader] });
  telemetry = createTelemetry({ tracer: tracerProvider.getTracer('test'), meter: meterProvider.getMeter('test') });
});
afterEach(async () => {
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
});

/** The data points of a counter: its value by the `wuwe.event` attribute. */
async function counted(name: string): Promise<Record<string, number>> {
  await reader.forceFlush();
  const points =
    (metricExporter.getMetrics().at(-1)?.scopeMetrics ?? [])
      .flatMap((scope) => scope.metrics)
      .find((metric) => metric.descriptor.name === name)?.dataPoints ?? [];
  return Object.fromEntries(points.map((point) => [String(point.attributes['wuwe.event']), point.value as number]));
}

/** A tool that ignores its signal and answers after `ms`; its deadline is 30 ms, with no retry. */
function stubborn(provider: FunctionProvider, name: string, ms: number): FunctionProvider {
  return provider.add(name, () => sleep(ms).then(() => 'late answer'), {
    timeoutMs: 30,
    sideEffect: 'read',
    idempotency: 'idempotent',
    retry: { maxAttempts: 1 },
  });
}

describe('wuwe/telemetry: no span is left open, and no late event opens one', () => {
  it('a late result that arrives after the run finished: one execute_tool span, ended; the event is counted as dropped', async () => {
    const provider = stubborn(new FunctionProvider(), 'slow', 150);
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'call_1', name: 'slow', arguments: {} }] },
      { text: 'done' },
    ]);
    const result = await new LlmAgentRunner(model, provider).complete('go', telemetry.runOptions({}));
    expect(result.toolCalls[0].outcome.error?.code).toBe('timeout');
    await sleep(250);
    expect(recorder.open()).toEqual([]);
    expect(recorder.named('execute_tool slow')).toHaveLength(1);
    expect(await counted('wuwe.tool.late_events')).toEqual({ tool_late_result_discarded: 1 });
  });

  it('a late result that arrives while the run still runs: no second span; the event is counted as dropped', async () => {
    const provider = stubborn(new FunctionProvider(), 'slow', 100).add('wait', () => sleep(250).then(() => 'waited'));
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'call_1', name: 'slow', arguments: {} }] },
      { toolCalls: [{ id: 'call_2', name: 'wait', arguments: {} }] },
      { text: 'done' },
    ]);
    await new LlmAgentRunner(model, provider).complete('go', telemetry.runOptions({}));
    expect(recorder.open()).toEqual([]);
    expect(recorder.named('execute_tool slow')).toHaveLength(1);
    expect(recorder.started.filter((span) => span.name.startsWith('execute_tool'))).toHaveLength(2);
    expect(await counted('wuwe.tool.late_events')).toEqual({ tool_late_result_discarded: 1 });
  });

  it('an aborted run whose tools ignore their signal ends every span, now and after the tools return', async () => {
    const provider = new FunctionProvider().add('ignore', () => sleep(150).then(() => 'ignored the abort'));
    const model = new ScriptedModelClient([
      {
        toolCalls: [
          { id: 'call_1', name: 'ignore', arguments: {} },
          { id: 'call_2', name: 'ignore', arguments: {} },
        ],
      },
      { text: 'done' },
    ]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const result = await new LlmAgentRunner(model, provider).complete(
      'go',
      telemetry.runOptions({ signal: controller.signal }),
    );
    expect(result.stopReason).toBe('aborted');
    expect(recorder.open()).toEqual([]);
    await sleep(250);
    expect(recorder.open()).toEqual([]);
    expect(recorder.named('execute_tool ignore')).toHaveLength(2);
  });

  it('a streamed run with a timed-out tool: every span ends, the late result after the end opens none', async () => {
    const provider = stubborn(new FunctionProvider(), 'slow', 150);
    const model = new ScriptedModelClient([
      { toolCalls: [{ id: 'call_1', name: 'slow', arguments: {} }] },
      { text: 'done' },
    ]);
    const run = new LlmAgentRunner(model, provider).stream('go', telemetry.runOptions({}));
    for await (const event of run) void event;
    expect((await run.result).text).toBe('done');
    expect(recorder.open()).toEqual([]);
    await sleep(250);
    expect(recorder.open()).toEqual([]);
    expect(recorder.named('execute_tool slow')).toHaveLength(1);
  });
});

describe("wuwe/telemetry: every span's times come from the SDK's clock", () => {
  it("a call's span ends after it starts and inside its run's span, even when the wall clock and performance.now() disagree", async () => {
    // The SDK starts a span at Date.now() and measures its duration with performance.now(); performance.timeOrigin plus
    // performance.now() drifts from Date.now() in a long-lived process. Here by 60 s, from the start of the run.
    const realNow = performance.now.bind(performance);
    const drift = jest.spyOn(performance, 'now').mockImplementation(() => realNow() + 60_000);
    try {
      const provider = new FunctionProvider().add('lookup', () => 'found');
      const model = new ScriptedModelClient([
        { toolCalls: [{ id: 'c1', name: 'lookup', arguments: {} }] },
        { text: 'done' },
      ]);
      await new LlmAgentRunner(model, provider).complete('go', telemetry.runOptions());
      await sleep(0);
    } finally {
      drift.mockRestore();
    }
    const nanos = ([seconds, ns]: readonly [number, number]): number => seconds * 1e9 + ns;
    const [call] = recorder.named('execute_tool lookup');
    const [run] = recorder.named('invoke_agent');
    if (call === undefined || run === undefined) throw new Error('the run and its call were not traced');
    expect(nanos(call.endTime)).toBeGreaterThanOrEqual(nanos(call.startTime));
    expect(nanos(call.endTime)).toBeLessThanOrEqual(nanos(run.endTime));
    expect(nanos(call.startTime)).toBeGreaterThanOrEqual(nanos(run.startTime));
  });
});
