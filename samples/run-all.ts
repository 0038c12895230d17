/** `npm run demo`: runs every sample in turn. */
import 'reflect-metadata';
import { ScriptedModelClient, WuweError } from '../lib';
import { demoModel } from './demo-model';
import { main as weather } from './weather';
import { main as tour } from './agent-tour';

async function runAll(): Promise<void> {
  // Which model the samples run on (each sample picks the same way).
  const { model, description } = demoModel(() => new ScriptedModelClient([]));
  console.log(`== model: ${model.modelName} (${description})\n`);
  console.log('== samples/weather.ts');
  await weather();
  console.log('\n== samples/agent-tour.ts');
  await tour();
}

runAll().catch((error: unknown) => {
  // A wuwe error (a rejected API key, no network, a missing package) is reported in one line; anything else is a bug:
  // show the stack.
  if (WuweError.isInstance(error)) console.error(`demo failed: ${error.name} (${error.code}): ${error.message}`);
  else console.error(error);
  process.exitCode = 1;
});
