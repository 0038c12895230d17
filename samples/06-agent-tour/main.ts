/**
 * The agent tour: one run that shows every policy of the runner in a readable trace.
 *
 * Offline it runs on ScriptedModelClient; when the environment names a model (ANTHROPIC_API_KEY,
 * OPENAI_API_KEY or OPENAI_BASE_URL: see demo-model.ts) it asks that model the same question.
 * Run it with `npm run demo`.
 */
import 'reflect-metadata';
import {
  composeToolProviders,
  LlmAgentRunner,
  LlmAgentRunResult,
  ReflectedToolProvider,
  RunStore,
  ScriptedModelClient,
} from '../../lib';
import { SqliteRunStore } from '../../lib/durable/sqlite';
import type { ModelStepper } from '../../lib/model';
import type { LlmAgentEvent } from '../../lib';
import { demoModel } from '../demo-model';
import { formatEvent } from './trace';
import { BuildReport, DeleteDatabase, GetWeather, ReadLog, ReindexProvider, UpdateSetting } from './tour-tools';

/** What the tour asks the model. */
export const TOUR_PROMPT = [
  'You operate our staging environment. Please:',
  '1. tell me the weather in Tokyo and set the setting "region" to "ap-northeast-1";',
  '2. build the 2026-Q3 report, read the log of the "checkout" service and reindex search with 4 shards;',
  '3. delete the "staging" database;',
  'then summarise what happened, including anything that failed.',
].join('\n');

/** The offline model: the turns a careful model would take for {@link TOUR_PROMPT}. */
export function scriptedTourModel(): ScriptedModelClient {
  return new ScriptedModelClient([
    {
      text: 'Checking the weather and updating the region.',
      toolCalls: [
        { name: 'get_weather', arguments: '{"city":"Tokyo"}' },
        { name: 'update_setting', arguments: '{"key":"region","value":"ap-northeast-1"}' },
      ],
    },
    {
      text: 'Building the report, reading the log and reindexing.',
      toolCalls: [
        { name: 'build_report', arguments: '{"quarter":"2026-Q3"}' },
        { name: 'read_log', arguments: '{"service":"checkout"}' },
        { name: 'reindex_search', arguments: '{"shards":4}' },
      ],
    },
    {
      text: 'Deleting the staging database.',
      toolCalls: [{ name: 'delete_database', arguments: '{"name":"staging"}' }],
    },
    (messages) => {
      const failures = messages
        .filter((message) => message.role === 'tool' && message.isError)
        .map((message) => (message.role === 'tool' ? message.toolName : ''));
      return {
        text: `Done. Tokyo is 22 degrees, the region is set, search is reindexed. Failed: ${failures.join(', ')}.`,
      };
    },
  ]);
}

/** Options of {@link main}. */
export interface TourOptions {
  /** @default the model the environment names (see demo-model.ts), else the scripted model */
  readonly model?: ModelStepper;
  /** Where trace lines go. @default console.log */
  readonly print?: (line: string) => void;
  /** The durable record. @default a SqliteRunStore at `.wuwe/runs.db` */
  readonly store?: RunStore;
  /** Also receives every runner event (a `RunEventJournal`'s `onEvent`, for the HTML timeline). @default none */
  readonly onEvent?: (event: LlmAgentEvent) => void;
}

/** Runs the tour and returns the trace lines and the run result. */
export async function main(options: TourOptions = {}): Promise<{ lines: string[]; result: LlmAgentRunResult }> {
  const lines: string[] = [];
  const print = (line: string): void => {
    lines.push(line);
    (options.print ?? console.log)(line);
  };
  const picked = options.model === undefined ? demoModel(scriptedTourModel) : undefined;
  const model = options.model ?? picked!.model;
  const description =
    picked?.description ?? (model instanceof ScriptedModelClient ? 'offline, scripted' : 'given by the caller');
  print(`model: ${model.modelName} (${description})`);
  const provider = composeToolProviders(
    new ReflectedToolProvider([GetWeather, UpdateSetting, BuildReport, ReadLog, DeleteDatabase]),
    new ReindexProvider(),
  );
  const runner = new LlmAgentRunner(model, provider);
  const store = options.store ?? new SqliteRunStore('.wuwe/runs.db');
  print(`user: ${TOUR_PROMPT}`);
  const result = await runner.complete(TOUR_PROMPT, {
    store,
    maxSteps: 8,
    toolOutputProjection: { maxBytes: 4096, maxTokens: 1024 },
    approvalHandler: (request) => ({
      approved: false,
      reason: `the demo approves nothing destructive (${request.toolName})`,
      decidedBy: 'demo policy',
    }),
    onEvent: (event) => {
      options.onEvent?.(event);
      const line = formatEvent(event);
      if (line !== undefined) print(line);
    },
  });
  print(`stop: ${result.stopReason} after ${result.steps} model requests, ${result.toolCalls.length} tool calls`);
  print(`assistant: ${result.text}`);
  const record = await store.loadRun(result.runId);
  print(
    `record: run ${result.runId} is ${record?.status}; ${record?.toolCalls.length} tool outcomes admitted, ` +
      `${record?.toolOutputProjections.length} projections audited${options.store === undefined ? ' in .wuwe/runs.db' : ''}`,
  );
  if (options.store === undefined) await store.close();
  return { lines, result };
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
