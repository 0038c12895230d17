import 'reflect-metadata';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { descriptorFromLlmTool } from '../lib/contract';
import { LlmAgentRunner, ScriptedModelClient, ToolDescriptor, ToolInvocation, ToolProvider } from '../lib';
import { createTelemetry } from '../lib/telemetry';
const inputSchema = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false };
class WeatherProvider implements ToolProvider {
  private readonly descriptor: ToolDescriptor = descriptorFromLlmTool({ name: 'get_weather', description: 'Get the weather.', inputSchema }, { sideEffect: 'read', idempotency: 'idempotent' });
  listTools(): readonly ToolDescriptor[] { return [this.descriptor]; }
  invokeTool(invocation: ToolInvocation): unknown { return { city: (invocation.arguments as { city: string }).city, degrees: 22 }; }
}
async function main(): Promise<void> {
  const mode = process.argv[2] ?? 'on';
  const processor = new BatchSpanProcessor({ export: (s, done) => done({ code: 0 }), shutdown: async () => {} }, { maxQueueSize: 65536, maxExportBatchSize: 4096, scheduledDelayMillis: 200 });
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [processor] });
  const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 3_600_000 })] });
  const telemetry = createTelemetry({ tracer: tracerProvider.getTracer('bench'), meter: meterProvider.getMeter(mode === 'nometer' ? 'x' : 'bench') });
  const runner = new LlmAgentRunner(new ScriptedModelClient([]), new WeatherProvider());
  const call = { id: 'call_1', name: 'get_weather', arguments: '{"city":"Tokyo"}' };
  const tracer = tracerProvider.getTracer('bench');
  const fns: Record<string, () => Promise<unknown> | void> = {
    off: () => runner.invokeToolCall(call, { runId: 'bench' }),
    on: () => runner.invokeToolCall(call, telemetry.runOptions({ runId: 'bench' })),
    ev: () => { const o = telemetry.runOptions({ runId: 'bench' }); return runner.invokeToolCall(call, { runId: 'bench', onEvent: o.onEvent }); },
    noop3: () => runner.invokeToolCall(call, { runId: 'bench', onEvent: () => undefined, onToolResult: () => undefined, onToolOutputProjection: () => undefined }),
    noopev: () => runner.invokeToolCall(call, { runId: 'bench', onEvent: () => undefined }),
    bare: () => { const span = tracer.startSpan('execute_tool get_weather', { attributes: { a: 1 } }); span.addEvent('x', { attempt: 1 }); span.end(); },
  };
  const fn = fns[mode] ?? fns.on;
  for (let r = 0; r < Number(process.argv[4] ?? 4); r++) {
    const n = Number(process.argv[3] ?? 50000);
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn();
    console.log(mode, (Number(process.hrtime.bigint() - t) / 1000 / n).toFixed(2), 'us');
  }
}
void main();
