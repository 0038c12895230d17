import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { root } from './packed-package';

/** README.md, CONTRIBUTING.md and every page of docs/. */
const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown file: its headings' and explicit `<a id="...">` ones (fenced code left out). */
function anchorsOf(text: string): Set<string> {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  const anchors = new Set([...prose.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1])));
  for (const match of prose.matchAll(/<a id="([^"]+)">/g)) anchors.add(match[1]);
  return anchors;
}

/** The relative links of a Markdown text (`[text](target)`, not in code), as [target, anchor]. */
function relativeLinks(text: string): [string, string | undefined][] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z]+:/.test(target))
    .map((target) => {
      const [path, anchor] = target.split('#');
      return [path, anchor];
    });
}

describe('the links of README.md, CONTRIBUTING.md and docs/*.md', () => {
  it.each(DOCUMENTS)('%s: every relative link names a file that exists, and a heading of it', (document) => {
    const text = readFileSync(join(root, document), 'utf8');
    const broken: string[] = [];
    for (const [path, anchor] of relativeLinks(text)) {
      const target = path === '' ? join(root, document) : join(root, dirname(document), path);
      if (!existsSync(target)) {
        broken.push(`${path}: no such file`);
        continue;
      }
      if (anchor !== undefined && target.endsWith('.md') && !anchorsOf(readFileSync(target, 'utf8')).has(anchor))
        broken.push(`${relative(root, target)}#${anchor}: no such heading`);
    }
    expect(broken).toEqual([]);
  });
});
