/**
 * Streaming overhead, as ratios to baselines measured in the same run: (s) `runner.stream()` of a
 * two-step run on ScriptedModelClient (no pauses between deltas), every event consumed, and (s2) the
 * same with about 2.6x as many deltas, against the same run through `complete()` (with and without a
 * signal: a stream's run always has one, so the consumer can abort it). The overhead per event is the
 * marginal cost (s2 - s) / (extra events); what remains is the fixed cost per streamed run.
 */
import { Field, LlmAgentRunner, LlmAgentStreamEvent, ReflectedToolProvider, ScriptedModelClient, Tool } from '../lib';
import { measure, report } from './measure';

@Tool({ name: 'get_weather', description: 'Get the weather.' })
class GetWeather {
  @Field({ description: 'City name.' }) city!: string;
  invoke(): { city: string; degrees: number } {
    return { city: this.city, degrees: 22 };
  }
}

const turns = [
  { toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: '{"city":"Tokyo"}' }] },
  { text: 'It is 22 degrees in Tokyo, with a light breeze from the bay.' },
];
const prompt = "What's the weather in Tokyo?";

function runnerWith(streamDeltas: number): LlmAgentRunner {
  const model = new ScriptedModelClient(turns, {
    whenExhausted: 'repeat',
    recordRequests: false,
    streamDeltas,
    streamPauses: false,
  });
  return new LlmAgentRunner(model, new ReflectedToolProvider([GetWeather]));
}

async function consume(runner: LlmAgentRunner): Promise<number> {
  let events = 0;
  for await (const _event of runner.stream(prompt) as AsyncIterable<LlmAgentStreamEvent>) events++;
  return events;
}

export default async function streamBench(): Promise<void> {
  const few = runnerWith(4);
  const many = runnerWith(16);
  const fewEvents = await consume(few);
  const manyEvents = await consume(many);
  const complete = await measure('complete(): two-step run on ScriptedModelClient', () => few.complete(prompt), 5_000);
  const withSignal = await measure(
    'complete() with a signal (as stream() runs)',
    () => few.complete(prompt, { signal: new AbortController().signal }),
    5_000,
  );
  const streamed = await measure(`(s) stream(), ${fewEvents} events consumed`, () => consume(few), 5_000);
  const streamedMany = await measure(`(s2) stream(), ${manyEvents} events consumed`, () => consume(many), 5_000);
  report(complete, [withSignal, streamed, streamedMany]);
  // The marginal cost of one more event, and what is left per run once the events are paid for.
  const perEvent = (streamedMany.nsPerOp - streamed.nsPerOp) / (manyEvents - fewEvents);
  const perRun = streamed.nsPerOp - withSignal.nsPerOp - perEvent * fewEvents;
  console.log(
    `streaming overhead per event: ${(perEvent / 1000).toFixed(3)} us (${(perEvent / complete.nsPerOp).toFixed(3)}x a whole complete() run)`,
  );
  console.log(`streaming overhead per run beyond complete() with a signal: ${(perRun / 1000).toFixed(3)} us`);
  const ratio = perEvent / complete.nsPerOp;
  console.log(
    `target one streamed event at most 0.25x a two-step complete(): ${ratio.toFixed(3)}x: ${ratio <= 0.25 ? 'met' : 'NOT MET'}`,
  );
}
