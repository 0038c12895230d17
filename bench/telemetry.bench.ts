/**
 * Tracing overhead per call: the same work with wuwe/telemetry on (the OpenTelemetry SDK with a
 * simple span processor into an in-memory exporter, and a meter with an in-memory reader) against
 * off, in the same run: (a) one dispatch through the per-call path; (b) a two-step `complete()` on
 * ScriptedModelClient (run, two chat and one tool span). Target: on / off <= 1.3x. Also printed: the
 * floor the SDK sets (spans started per call times one bare span) and wuwe's own share of the added cost.
 */
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { descriptorFromLlmTool, LlmAgentRunner, ScriptedModelClient, ToolDescriptor, ToolInvocation, ToolProvider } from '../lib';
import { createTelemetry } from '../lib/telemetry';
import { measure, report } from './measure';

const inputSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };

class WeatherProvider implements ToolProvider {
  private readonly descriptor: ToolDescriptor = descriptorFromLlmTool({ name: 'get_weather', description: 'Get the weather.', inputSchema }, { sideEffect: 'read', idempotency: 'idempotent' });
  listTools(): readonly ToolDescriptor[] {
    return [this.descriptor];
  }
  invokeTool(invocation: ToolInvocation): unknown {
    return { city: (invocation.arguments as { city: string }).city, degrees: 22 };
  }
}

/** Spans started per call of `fn` (over 100 calls). */
async function spansPer(fn: () => Promise<unknown>, started: () => number): Promise<number> {
  const before = started();
  for (let i = 0; i < 100; i++) await fn();
  return (started() - before) / 100;
}

/** The part of `added` beyond `sdk`, as a share of `added`. */
function share(added: number, sdk: number): string {
  return `${Math.max(0, (100 * (added - sdk)) / added).toFixed(0)}%`;
}

export default async function telemetryBench(): Promise<void> {
  const exporter = new InMemorySpanExporter();
  // Counts the spans started, so the SDK's own share of the traced path can be told apart.
  let started = 0;
  const counter: SpanProcessor = { onStart: () => void started++, onEnd: () => undefined, forceFlush: async () => undefined, shutdown: async () => undefined };
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [counter, new SimpleSpanProcessor(exporter)] });
  const reader = new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const telemetry = createTelemetry({ tracer: tracerProvider.getTracer('bench'), meter: meterProvider.getMeter('bench') });
  let ended = 0;
  // getFinishedSpans() copies; count instead, and empty the exporter now and then.
  const drain = (): void => {
    if (++ended % 1_000 === 0) exporter.reset();
  };

  const provider = new WeatherProvider();
  const runner = new LlmAgentRunner(new ScriptedModelClient([]), provider);
  const call = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Tokyo"}' };
  const dispatchOff = await measure('(a) per-call path, tracing off', () => runner.invokeToolCall(call, { runId: 'bench' }));
  const dispatchOn = await measure('(a) per-call path, tracing on', () => {
    drain();
    return runner.invokeToolCall(call, telemetry.runOptions({ runId: 'bench' }));
  });
  const spansPerCall = await spansPer(() => runner.invokeToolCall(call, telemetry.runOptions({ runId: 'bench' })), () => started);

  const turns = [{ toolCalls: [call] }, { text: 'It is 22 degrees in Tokyo.' }];
  const bound = new LlmAgentRunner(new ScriptedModelClient(turns, { whenExhausted: 'repeat', recordRequests: false }), provider);
  const completeOff = await measure('(b) complete() two steps, tracing off', () => bound.complete("What's the weather in Tokyo?"), 5_000);
  const completeOn = await measure(
    '(b) complete() two steps, tracing on',
    () => {
      drain();
      return bound.complete("What's the weather in Tokyo?", telemetry.runOptions());
    },
    5_000,
  );
  const spansPerRun = await spansPer(() => bound.complete("What's the weather in Tokyo?", telemetry.runOptions()), () => started);
  const tracer = tracerProvider.getTracer('bench');
  const attributes = { a: 'get_weather', b: 'call_1', c: 'function', d: 'execute_tool', e: 'read', f: 'idempotent', g: 1, h: false };
  const bareSpan = await measure('floor: one bare SDK span (8 attributes, 1 event)', () => {
    drain();
    const span = tracer.startSpan('execute_tool get_weather', { attributes });
    span.addEvent('wuwe.tool.attempt', { attempt: 1 });
    span.end();
  });
  report(dispatchOff, [dispatchOn, completeOff, completeOn, bareSpan]);
  const a = dispatchOn.nsPerOp / dispatchOff.nsPerOp;
  const b = completeOn.nsPerOp / completeOff.nsPerOp;
  const met = a <= 1.3 && b <= 1.3 ? 'met' : 'NOT MET';
  console.log(`target: tracing on / off <= 1.3x; measured (a) per call ${a.toFixed(2)}x, (b) per run ${b.toFixed(2)}x: ${met}`);
  // What the SDK alone costs: the spans a traced call starts, each at least a bare span's price.
  const sdkFloorA = (spansPerCall * bareSpan.nsPerOp) / dispatchOff.nsPerOp;
  const sdkFloorB = (spansPerRun * bareSpan.nsPerOp) / completeOff.nsPerOp;
  console.log(
    `SDK floor: one bare span costs ${(bareSpan.nsPerOp / dispatchOff.nsPerOp).toFixed(2)}x an untraced call; (a) starts ${spansPerCall} spans (on / off at least ${(1 + sdkFloorA).toFixed(2)}x), ` +
      `(b) ${spansPerRun} (at least ${(1 + sdkFloorB).toFixed(2)}x); wuwe's own share of the added cost: (a) ${share(dispatchOn.nsPerOp - dispatchOff.nsPerOp, spansPerCall * bareSpan.nsPerOp)}, (b) ${share(completeOn.nsPerOp - completeOff.nsPerOp, spansPerRun * bareSpan.nsPerOp)}`,
  );
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
}
