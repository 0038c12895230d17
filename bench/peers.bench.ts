/**
 * wuwe beside its peers, in the same run, on the same tool and model (`npm run bench -- peers`).
 *
 * The tool is `get_weather` (`{ city: string, unit?: 'celsius' | 'fahrenheit' }`, returning
 * `{ city, degrees: 22 }` from an async function); the model's call carries its arguments as the JSON
 * text `{"city":"Tokyo"}`; the scripted model first asks for the tool, then answers with text. The
 * peers' side is in `bench/peer-cases.ts`.
 *
 * Per tool call (one call from JSON text to the tool's result):
 * - wuwe: `runner.invokeToolCall(call, { runId })` of a reflected `@Tool` class under the default
 *   contract (arguments validated against the reflected JSON Schema with a precompiled ajv validator,
 *   the call's outcome built);
 * - AI SDK (`ai` 6): what `generateText` does for one call, with the SDK's public exports:
 *   `asSchema(tool.inputSchema)`, `safeParseJSON({ text, schema })` from `@ai-sdk/provider-utils`
 *   (secure-json-parse, then `safeValidateTypes`), then `tool.execute(input, { toolCallId, messages })`;
 *   with a `jsonSchema(...)` schema (which has no `validate`: the input is not checked at all), with
 *   `jsonSchema(schema, { validate })` running a precompiled ajv validator of the same schema, and with
 *   a zod schema (checked with zod). Without the telemetry span, callbacks and
 *   `executeTool` stream wrapper that `generateText` adds around a call: this is less than the SDK does;
 * - OpenAI Agents SDK (`@openai/agents-core` 0.14.3, the last release on openai 6 / Node 20):
 *   `tool.invoke(runContext, argumentsJsonText)` of a `tool({ parameters, execute })`, once with JSON
 *   Schema parameters (`strict: false`: JSON.parse, no check) and once with zod parameters (strict);
 * - LangChain.js (`@langchain/core` 1.4): `tool.invoke(JSON.parse(argumentsJsonText))` of a `tool(fn,
 *   { schema })`, once with a JSON Schema (checked with @cfworker/json-schema) and once with zod (the
 *   JSON.parse stands for the provider integration that parses a call's arguments);
 * - two references, not peers: the floor (JSON.parse + precompiled ajv + awaited call), and the
 *   hand-written minimum of a default-contract call with no runner (`weatherMinimum`: the arguments
 *   guarded and validated into an instance, the outcome from a copy of the result, the Tool message,
 *   its bytes and tokens, four clock reads), the least a call that keeps wuwe's guarantees can cost.
 *
 * Per agent turn (prompt, a tool call, its result back to the model, the text answer):
 * - wuwe: `runner.complete(prompt)` on `ScriptedModelClient` (as case (b) of `runner.bench.ts`);
 * - AI SDK: `generateText({ model, tools, prompt, stopWhen: stepCountIs(2) })` on `MockLanguageModelV3`
 *   from `ai/test`, with the `jsonSchema` tool and with the zod tool;
 * - OpenAI Agents SDK: `run(agent, prompt)` with a `Model` that returns the two responses (tracing on, as
 *   `run()` has it, with no trace processor: spans built, nothing exported), and the same
 *   on a `Runner({ tracingDisabled: true })`;
 * - LangChain.js: @langchain/core has no agent loop; the loop of its tool-calling guide with a
 *   `BaseChatModel` subclass that returns the two messages: `model.invoke(messages)`, `tool.invoke(toolCall)`
 *   for each call, `model.invoke(messages)` again (JSON Schema tool).
 *
 * Each group is timed with `measureTogether` (rounds taken in turn after a full GC and untimed warm-up
 * calls, CPU time). The table gives microseconds per operation and the ratio to wuwe's case of the
 * group; then one line per peer case: "wuwe vs <peer> per tool call / per agent turn: <ratio>x: ahead |
 * behind", the ratio being the peer's cost over wuwe's (above 1: wuwe is ahead).
 */
import { measureTogether, ratioOfFastestRounds, type Measurement } from './measure';
import {
  agentsJsonTool,
  agentsRunContext,
  agentsTurn,
  agentsUntracedTurn,
  agentsZodTool,
  aiCheckedTool,
  aiJsonTool,
  aiSdkToolCall,
  aiSdkTurn,
  aiZodTool,
  langchainJsonTool,
  langchainTurn,
  langchainZodTool,
} from './peer-cases';
import { prompt, weatherCall, weatherFloor, weatherMinimum, weatherRunners, type WeatherArgs } from './weather-tool';

/**
 * Prints the group's table: microseconds per operation (median of rounds) and the ratio to `wuwe` (the first case), of
 * medians and of fastest rounds.
 */
function table(measurements: readonly Measurement[]): void {
  const wuwe = measurements[0];
  console.table(
    measurements.map((m) => ({
      case: m.name,
      'us/op': (m.nsPerOp / 1000).toFixed(3),
      'ratio to wuwe': (m.nsPerOp / wuwe.nsPerOp).toFixed(2) + 'x',
      'fastest rounds': ratioOfFastestRounds(m, wuwe).toFixed(2) + 'x',
    })),
  );
}

/**
 * One line per peer case of the group (cases whose name starts with `floor` are references, not peers),
 * judged as the runner's targets are: on the ratio of the fastest rounds (load only adds time).
 */
function verdicts(measurements: readonly Measurement[], per: 'per tool call' | 'per agent turn'): void {
  const wuwe = measurements[0];
  for (const peer of measurements.slice(1)) {
    // The floor and the hand-written minimum are references, not peers.
    if (peer.name.startsWith('floor') || peer.name.startsWith('hand-written')) continue;
    const ratio = ratioOfFastestRounds(peer, wuwe);
    const medians = peer.nsPerOp / wuwe.nsPerOp;
    console.log(
      `wuwe vs ${peer.name} ${per}: ${ratio.toFixed(2)}x, fastest rounds (${medians.toFixed(2)}x of medians): ${ratio >= 1 ? 'ahead' : 'behind'}`,
    );
  }
}

/** Fails the bench when a case does not return what the tool or the model gives (a broken case times nothing). */
async function check(name: string, fn: () => unknown, expected: string): Promise<void> {
  const value = JSON.stringify(await fn());
  if (!value.includes(expected))
    throw new Error(`peer bench case '${name}' returned ${value}, expected it to contain ${expected}`);
}

export default async function peersBench(): Promise<void> {
  const { runner, bound } = weatherRunners();
  const aiJsonTurn = aiSdkTurn(aiJsonTool);
  const aiZodTurn = aiSdkTurn(aiZodTool);

  const perCall: Array<readonly [string, () => unknown]> = [
    ['wuwe runner.invokeToolCall', () => runner.invokeToolCall(weatherCall, { runId: 'bench' })],
    ['AI SDK (jsonSchema, unchecked)', () => aiSdkToolCall(aiJsonTool)],
    ['AI SDK (jsonSchema + ajv validate)', () => aiSdkToolCall(aiCheckedTool)],
    ['AI SDK (zod)', () => aiSdkToolCall(aiZodTool)],
    [
      'OpenAI Agents tool.invoke (JSON Schema, unchecked)',
      () => agentsJsonTool.invoke(agentsRunContext, weatherCall.arguments),
    ],
    ['OpenAI Agents tool.invoke (zod)', () => agentsZodTool.invoke(agentsRunContext, weatherCall.arguments)],
    [
      'LangChain tool.invoke (JSON Schema)',
      () => langchainJsonTool.invoke(JSON.parse(weatherCall.arguments) as WeatherArgs),
    ],
    ['LangChain tool.invoke (zod)', () => langchainZodTool.invoke(JSON.parse(weatherCall.arguments) as WeatherArgs)],
    ['floor: JSON.parse + precompiled ajv + awaited call', weatherFloor()],
    ['hand-written minimum of a default-contract call (no runner)', weatherMinimum()],
  ];
  const perTurn: Array<readonly [string, () => unknown]> = [
    ['wuwe runner.complete', () => bound.complete(prompt)],
    ['AI SDK generateText (jsonSchema)', aiJsonTurn],
    ['AI SDK generateText (zod)', aiZodTurn],
    ['OpenAI Agents run()', agentsTurn],
    ['OpenAI Agents Runner (tracing disabled)', agentsUntracedTurn],
    ['LangChain core loop', langchainTurn],
  ];
  for (const [name, fn] of perCall) await check(name, fn, '22');
  for (const [name, fn] of perTurn) await check(name, fn, '22 degrees');

  console.log('per tool call');
  const calls = await measureTogether(perCall, 20_000, 7);
  table(calls);
  console.log('per agent turn');
  const runs = await measureTogether(perTurn, 2_000, 5);
  table(runs);
  verdicts(calls, 'per tool call');
  verdicts(runs, 'per agent turn');
  targets(calls, runs);
}

/**
 * The regression lines of the performance targets, each judged on the ratio of the fastest rounds (the peer's
 * cost over wuwe's): per call at most the time of OpenAI Agents' `tool.invoke` (ratio at least 1; its JSON Schema
 * case, the cheaper of the two) and at most twice the AI SDK's bare parse-and-execute path (ratio at least 0.5);
 * per tool-then-answer run at most 1/50 of the AI SDK's `generateText` loop (ratio at least 50). The heap line
 * (flat over 1,000,000 runs) is printed by `runner.bench.ts` (`npm run bench -- runner --full`).
 */
function targets(calls: readonly Measurement[], runs: readonly Measurement[]): void {
  const lines: Array<readonly [string, readonly Measurement[], string, number]> = [
    ['per call at most OpenAI Agents tool.invoke', calls, 'OpenAI Agents tool.invoke (JSON Schema, unchecked)', 1],
    ['per call at most 2x the AI SDK bare parse-and-execute path', calls, 'AI SDK (jsonSchema, unchecked)', 0.5],
    ['per run at most 1/50 of the AI SDK generateText loop', runs, 'AI SDK generateText (jsonSchema)', 50],
  ];
  for (const [name, group, peerName, least] of lines) {
    const peer = group.find((m) => m.name === peerName);
    if (peer === undefined) throw new Error(`no peer case '${peerName}'`);
    const ratio = ratioOfFastestRounds(peer, group[0]);
    console.log(
      `target ${name}: ${peerName} / wuwe = ${ratio.toFixed(2)}x, fastest rounds (at least ${least}x): ${ratio >= least ? 'met' : 'NOT MET'}`,
    );
  }
}
