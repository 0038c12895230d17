/**
 * Packs paragraphs into passages of at most `maxChars` characters, in order. Paragraphs are joined
 * with a blank line while they fit; a paragraph longer than the limit is cut at sentence ends, then
 * at whitespace, and only as a last resort inside a word (never inside a surrogate pair).
 */
export function packParagraphs(paragraphs: readonly string[], maxChars: number): string[] {
  const passages: string[] = [];
  let current = '';
  for (const raw of paragraphs) {
    const paragraph = raw.trim();
    if (paragraph.length === 0) continue;
    for (const piece of paragraph.length > maxChars ? cutLongText(paragraph, maxChars) : [paragraph]) {
      if (current.length === 0) current = piece;
      else if (current.length + 2 + piece.length <= maxChars) current += `\n\n${piece}`;
      else {
        passages.push(current);
        current = piece;
      }
    }
  }
  if (current.length > 0) passages.push(current);
  return passages;
}

/** Splits text into paragraphs at blank lines. */
export function splitParagraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph.length > 0);
}

function cutLongText(text: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > maxChars) {
    const window = rest.slice(0, maxChars + 1);
    let cut = lastBoundary(window, /[.!?。！？](?=\s)/g, 1);
    if (cut < maxChars / 2) cut = lastBoundary(window, /\s/g, 0);
    if (cut < maxChars / 4) cut = safeHardCut(rest, maxChars);
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest.length > 0) pieces.push(rest);
  return pieces.filter((piece) => piece.length > 0);
}

/** Index just after the last match of `pattern` within `window`, shifted by `offset`; -1 when none. */
function lastBoundary(window: string, pattern: RegExp, offset: number): number {
  let found = -1;
  for (const match of window.matchAll(pattern)) {
    const end = match.index + offset;
    if (end > 0 && end <= window.length - 1) found = end;
  }
  return found;
}

function safeHardCut(text: string, maxChars: number): number {
  const code = text.charCodeAt(maxChars - 1);
  return code >= 0xd800 && code <= 0xdbff ? maxChars - 1 : maxChars;
}
