/** `npm run demo`: runs every sample in turn. */
import 'reflect-metadata';
import { main as weather } from './weather';
import { main as tour } from './agent-tour';

async function runAll(): Promise<void> {
  console.log('== samples/weather.ts');
  await weather();
  console.log('\n== samples/agent-tour.ts');
  await tour();
}

runAll().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
