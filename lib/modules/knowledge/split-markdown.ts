import { packParagraphs } from './pack-passages';

/** A piece of a document small enough to index and to show to a model. */
export interface DocumentPassage {
  /** Heading path of the section, e.g. `Install > From source`; empty outside any heading. */
  readonly heading: string;
  readonly text: string;
}

/** A Markdown document cut into passages, with its first level-1 heading as the title. */
export interface SplitMarkdown {
  readonly title?: string;
  readonly passages: DocumentPassage[];
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Splits Markdown by ATX headings (`#` .. `######`) into sections, each section into paragraphs
 * (blank-line separated; fenced code blocks stay whole), and packs paragraphs into passages of at
 * most `maxChars`. A leading YAML front matter block is dropped. Headings inside code fences are text.
 */
export function splitMarkdown(markdown: string, maxChars: number): SplitMarkdown {
  const lines = stripFrontMatter(markdown.replace(/\r\n?/g, '\n')).split('\n');
  const passages: DocumentPassage[] = [];
  const path: string[] = [];
  let title: string | undefined;
  let paragraphs: string[] = [];
  let block: string[] = [];
  let fence: string | undefined;

  const endBlock = (): void => {
    if (block.length > 0) paragraphs.push(block.join('\n'));
    block = [];
  };
  const endSection = (): void => {
    endBlock();
    const heading = path.filter((part) => part.length > 0).join(' > ');
    for (const text of packParagraphs(paragraphs, maxChars)) passages.push({ heading, text });
    paragraphs = [];
  };

  for (const line of lines) {
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      block.push(line);
      if (fenceMatch !== null && fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length)
        fence = undefined;
      continue;
    }
    if (fenceMatch !== null) {
      fence = fenceMatch[1];
      block.push(line);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading !== null) {
      endSection();
      const level = heading[1].length;
      const text = heading[2].trim();
      path.length = Math.min(path.length, level - 1);
      while (path.length < level - 1) path.push('');
      path.push(text);
      if (level === 1 && title === undefined && text.length > 0) title = text;
      continue;
    }
    if (line.trim().length === 0) endBlock();
    else block.push(line);
  }
  endSection();
  return title === undefined ? { passages } : { title, passages };
}

function stripFrontMatter(text: string): string {
  if (!text.startsWith('---\n')) return text;
  const end = text.indexOf('\n---', 4);
  if (end < 0) return text;
  const after = text.indexOf('\n', end + 4);
  return after < 0 ? '' : text.slice(after + 1);
}
