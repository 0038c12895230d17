/**
 * The cost of budgets: a two-step `complete()` (one tool call, then the answer) on ScriptedModelClient with a run
 * `budget` (token, cost and tool-call limits, priced) against the same run without one, in process; and a durable run
 * on a SQLite file with a `budgetKey` (each model request reserved and settled, each tool call reserved, in the
 * store) against the same durable run without one. Wall time (SQLite commits wait for the disk), cases measured
 * together in alternating rounds; the ratio of each pair is printed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LlmAgentRunner, ReflectedToolProvider, ScriptedModelClient } from '../lib';
import { SqliteRunStore } from '../lib/durable/sqlite';
import { measureTogether, pairedRatio, report } from './measure';
import { GetWeather, prompt, weatherCall } from './weather-tool';

const script = () =>
  new ScriptedModelClient(
    [
      { toolCalls: [weatherCall], usage: { inputTokens: 40, outputTokens: 8 } },
      { text: 'Sunny.', usage: { inputTokens: 60, outputTokens: 4 } },
    ],
    { whenExhausted: 'repeat', modelName: 'bench-model', recordRequests: false },
  );

const budget = { maxTotalTokens: 1e12, maxCostUsd: 1e9, maxToolCalls: 1e12, maxModelRequests: 1e12 };
const modelPrices = { 'bench-model': { inputUsdPerMillionTokens: 3, outputUsdPerMillionTokens: 15 } };

export default async function benchBudget(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wuwe-bench-budget-'));
  try {
    const provider = new ReflectedToolProvider([GetWeather]);
    const runner = () => new LlmAgentRunner(script(), provider);
    const plainRunner = runner();
    const budgetedRunner = runner();
    const store = new SqliteRunStore(join(dir, 'runs.db'));
    await store.budgetKeys.setKeyBudget('tenant', budget);
    const durableRunner = runner();
    const keyedRunner = runner();
    const [plain, budgeted] = await measureTogether(
      [
        ['complete(), no budget', () => plainRunner.complete(prompt)],
        ['complete(), budget + prices', () => budgetedRunner.complete(prompt, { budget, modelPrices })],
      ],
      2_000,
      7,
    );
    const [durable, keyed] = await measureTogether(
      [
        ['complete() on SQLite, no budget', () => durableRunner.complete(prompt, { store })],
        [
          'complete() on SQLite, budgetKey',
          () => keyedRunner.complete(prompt, { store, budgetKey: 'tenant', modelPrices }),
        ],
      ],
      40,
      5,
      'wall',
    );
    await store.close();
    report(plain, [budgeted]);
    report(durable, [keyed]);
    console.log(`budget in process: ${pairedRatio(budgeted, plain).median.toFixed(2)}x a run without one`);
    console.log(`budgetKey on SQLite: ${pairedRatio(keyed, durable).median.toFixed(2)}x a durable run without one`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
