import { makeTempDir } from '../durable/temp-dir';
import { runCli, spawnCli } from './cli-harness';

describe('usage errors with --json', () => {
  const dir = makeTempDir('cli-usage-json');
  afterAll(() => dir.cleanup());

  // The kind in `error.usage`: the parser's refusals; a value wuwe itself refuses (`--status sleeping`) has none.
  const cases: readonly (readonly [readonly string[], string | undefined])[] = [
    [['runs', 'list', '--json', '--bogus'], 'unknown_option'],
    [['--json', 'frobnicate'], 'unknown_option'],
    [['frobnicate', '--json'], 'unknown_command'],
    [['runs', 'frobnicate', '--json'], 'unknown_command'],
    [['runs', 'show', '--json'], 'missing_argument'],
    [['runs', 'list', '--json', '--status'], 'missing_option_value'],
    [['resume', 'run-1', '--json'], 'missing_required_option'],
    [['runs', 'show', 'a', 'b', '--json'], 'excess_arguments'],
    [['runs', 'list', '--json', '--status', 'sleeping'], undefined],
    [['runs', '--json'], 'unknown_option'],
    [['approvals', 'approve', 'run-1', 'call-1', '--json=x'], 'unknown_option'],
  ];

  it.each(cases)('%j prints one JSON error object with a stable code and exits 2', async (argv, kind) => {
    const result = await runCli(argv, dir.path);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.endsWith('\n')).toBe(true);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const parsed = JSON.parse(result.stderr) as { error: Record<string, unknown> };
    expect(parsed).toEqual({
      error: {
        code: 'usage',
        ...(kind === undefined ? {} : { usage: kind }),
        message: expect.any(String),
        exitCode: 2,
      },
    });
    expect(parsed.error.message).not.toMatch(/^error: /);
  });

  it('keeps the parser text without --json, and prints JSON from a real process', async () => {
    const text = await runCli(['runs', 'list', '--bogus'], dir.path);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain("error: unknown option '--bogus'");
    const spawned = await spawnCli(['runs', 'list', '--json', '--bogus'], dir.path);
    expect(spawned.code).toBe(2);
    expect(JSON.parse(spawned.stderr)).toEqual({
      error: { code: 'usage', usage: 'unknown_option', message: "unknown option '--bogus'", exitCode: 2 },
    });
  }, 120_000);
});
