/**
 * `npm run conformance`: runs jest over spec/conformance (extra arguments go to jest), then prints the
 * conformance matrix from jest's JSON results, one row per cell (guarantee x scenario x store x entry point x
 * client) with pass or fail, and the totals. Exits with jest's status.
 *
 * A cell is a test named by `cellName()` (see `matrix.ts`) inside `describe(guarantee)` and `describe(scenario)`;
 * other tests are not cells and are not listed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CELL = /^store=(\S+) entry=(\S+) client=(\S+)(?: (.*))?$/;

interface JestJson {
  readonly testResults: readonly {
    readonly assertionResults: readonly {
      readonly ancestorTitles: readonly string[];
      readonly title: string;
      readonly status: string;
    }[];
  }[];
}

/** The matrix of one jest run as a text table. */
export function matrixTable(results: JestJson): string {
  const rows: string[][] = [];
  for (const file of results.testResults)
    for (const test of file.assertionResults) {
      const match = CELL.exec(test.title);
      if (match === null) continue;
      const [guarantee = '', scenario = ''] = test.ancestorTitles;
      const result = test.status === 'passed' ? 'pass' : test.status === 'failed' ? 'FAIL' : test.status;
      rows.push([guarantee, scenario, match[1], match[2], match[3], match[4] ?? '', result]);
    }
  const header = ['scenario (public report)', 'store', 'entry point', 'client', 'case', 'result'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column + 1].length)));
  const line = (row: readonly string[]): string =>
    `| ${row.map((value, column) => value.padEnd(widths[column])).join(' | ')} |`;
  const count = (keep: (result: string) => boolean): number => rows.filter((row) => keep(row[6])).length;
  const out = ['Conformance matrix'];
  for (const guarantee of [...new Set(rows.map((row) => row[0]))]) {
    out.push(
      '',
      `Guarantee: ${guarantee}`,
      line(header),
      `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`,
    );
    for (const row of rows) if (row[0] === guarantee) out.push(line(row.slice(1)));
  }
  out.push(
    '',
    `${rows.length} cells: ${count((r) => r === 'pass')} pass, ${count((r) => r === 'FAIL')} fail, ` +
      `${count((r) => r !== 'pass' && r !== 'FAIL')} other`,
  );
  return out.join('\n');
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'wuwe-conformance-'));
  try {
    const output = join(dir, 'results.json');
    const jest = spawnSync(
      process.execPath,
      [
        require.resolve('jest/bin/jest'),
        'spec/conformance',
        '--json',
        `--outputFile=${output}`,
        ...process.argv.slice(2),
      ],
      { stdio: 'inherit' },
    );
    const results = JSON.parse(readFileSync(output, 'utf8')) as JestJson;
    process.stdout.write(`\n${matrixTable(results)}\n`);
    process.exitCode = jest.status ?? 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) main();
