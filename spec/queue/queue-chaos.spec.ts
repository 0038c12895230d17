import { describePostgres } from '../durable/postgres-env';
import { runChaos } from './chaos';

// The small chaos run of `npm test` (the large one is `npm run bench -- scale`): 60 runs of 3 tool calls,
// 2 worker processes, one SIGKILLed and replaced every 4 s and when 6 and 20 runs have ended (so a fast machine,
// which may finish before the first timer, still sees kills). 60 rather than 200 so that the suite stays
// well under two minutes on a loaded machine: with a load of 15 to 20 on 2 cores, 80 runs took 64 s
// (16 kills, 1.2 runs/s).
jest.setTimeout(180_000);

describePostgres('queue chaos (SIGKILLed workers)', () => {
  it('every run completes; no non-idempotent effect twice; no admitted outcome lost; nothing dead-lettered', async () => {
    const report = await runChaos({
      runs: 60,
      workers: 2,
      concurrency: 8,
      killEveryMs: 4_000,
      killAtEnded: [6, 20],
      toolDelayMs: 20,
      timeoutMs: 150_000,
    });
    expect(report).toMatchObject({
      finished: true,
      statuses: { completed: 60 },
      duplicateSideEffects: 0,
      lostAdmittedOutcomes: 0,
      deadLetters: 0,
    });
    expect(report.kills).toBeGreaterThanOrEqual(2);
  });
});
