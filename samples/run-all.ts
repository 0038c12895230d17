/** `npm run demo`: runs every numbered sample in turn. */
import 'reflect-metadata';
import { ScriptedModelClient, WuweError } from '../lib';
import { demoModel } from './demo-model';
import { main as defineATool } from './01-define-a-tool/main';
import { main as approval } from './02-approval/main';
import { main as durable } from './03-durable/main';
import { main as mcp } from './04-mcp/main';
import { main as nest } from './05-nest/main';
import { main as tour } from './06-agent-tour/main';
import { main as multiAgent } from './07-multi-agent/main';
import { main as uiStream } from './08-ui-stream/main';

/** The samples, in order: 01 and 06 run on the model the environment names. */
const SAMPLES: readonly (readonly [string, () => Promise<unknown>])[] = [
  ['samples/01-define-a-tool', () => defineATool()],
  ['samples/02-approval', () => approval()],
  ['samples/03-durable', () => durable()],
  ['samples/04-mcp', () => mcp()],
  ['samples/05-nest', () => nest()],
  ['samples/06-agent-tour', () => tour()],
  ['samples/07-multi-agent', () => multiAgent()],
  ['samples/08-ui-stream', () => uiStream()],
];

async function runAll(): Promise<void> {
  // Which model 01 and 06 run on (each picks the same way); the others are scripted.
  const { model, description } = demoModel(() => new ScriptedModelClient([]));
  console.log(`== model: ${model.modelName} (${description})`);
  for (const [name, sample] of SAMPLES) {
    console.log(`\n== ${name}`);
    await sample();
  }
}

runAll().catch((error: unknown) => {
  // A wuwe error (a rejected API key, no network, a missing package) is reported in one line; anything else is a bug:
  // show the stack.
  if (WuweError.isInstance(error)) console.error(`demo failed: ${error.name} (${error.code}): ${error.message}`);
  else console.error(error);
  process.exitCode = 1;
});
