import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './packed-package';

/** Every `lib/...` path a text names (a file or a folder), without trailing punctuation. */
function libPaths(text: string): string[] {
  return [...new Set([...text.matchAll(/\blib\/[\w./-]*[\w/]/g)].map((match) => match[0]))].sort();
}

describe('docs/architecture.md', () => {
  const page = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');

  it('names only files and folders of lib/ that exist', () => {
    const named = libPaths(page);
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  it('names the per-call steps that lib/runner/llm-agent-runner.ts declares, in the order executeToolCall awaits them', () => {
    const runner = readFileSync(join(root, 'lib', 'runner', 'llm-agent-runner.ts'), 'utf8');
    const steps = ['resolveTool', 'validateArguments', 'checkCapabilities', 'authorize', 'requestApproval'];
    const rest = ['checkPrecondition', 'dispatchWithRetries', 'finishOutcome', 'completeToolCall'];
    for (const step of [...steps, ...rest]) {
      expect(runner).toMatch(new RegExp(`protected (async )?${step}\\(`));
      expect(page).toContain(`**\`${step}\`**`);
    }
    const body = runner.slice(runner.indexOf('protected async executeToolCall('));
    // Each step is awaited after the one before it (a refused call may reach completeToolCall earlier too).
    let at = 0;
    for (const step of [...steps, ...rest]) {
      at = body.indexOf(`this.${step}(`, at);
      expect({ step, found: at >= 0 }).toEqual({ step, found: true });
    }
  });

  it('has a performance notes section that opens with a link to docs/performance.md', () => {
    expect(page).toMatch(/\n## Performance notes\n\n[^\n]*\(performance\.md\)/);
    expect(existsSync(join(root, 'docs', 'performance.md'))).toBe(true);
  });
});
