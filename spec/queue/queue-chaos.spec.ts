import { describePostgres } from '../durable/postgres-env';
import { runChaos } from './chaos';

// The small chaos run of `npm test` (the large one is `npm run bench -- scale`): 80 runs of 3 tool calls,
// 2 worker processes, one SIGKILLed and replaced every 3 s. 80 rather than 200 so that the suite stays
// well under two minutes on a loaded machine (the workers' start under ts-node alone takes seconds, and
// on a machine with a load of 20 on 2 cores 2 workers completed 3.4 runs/s).
jest.setTimeout(180_000);

describePostgres('queue chaos (SIGKILLed workers)', () => {
  it('every run completes; no non-idempotent effect twice; no admitted outcome lost; nothing dead-lettered', async () => {
    const report = await runChaos({ runs: 80, workers: 2, concurrency: 8, killEveryMs: 3_000, toolDelayMs: 20, timeoutMs: 150_000 });
    expect(report).toMatchObject({ finished: true, statuses: { completed: 80 }, duplicateSideEffects: 0, lostAdmittedOutcomes: 0, deadLetters: 0 });
    expect(report.kills).toBeGreaterThan(0);
  });
});
