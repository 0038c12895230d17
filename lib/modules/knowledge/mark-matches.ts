/**
 * Marks FTS5 `snippet()` and `highlight()` put around matches; the index removes them from text it indexes, so they
 * never come from a document.
 */
export const MATCH_OPEN_SENTINEL = '\u0001';
/** See {@link MATCH_OPEN_SENTINEL}. */
export const MATCH_CLOSE_SENTINEL = '\u0002';

/** Allowed highlight markers: 1 to 8 characters, none a letter, digit, space, control character or backslash. */
export const MARKER_PATTERN = /^[^\p{L}\p{N}\p{Z}\p{C}\s\\]{1,8}$/u;

/** Text as it is indexed: the sentinels replaced by U+FFFD, so a document can never fake a match mark. */
export function withoutSentinels(text: string): string {
  return text.split(MATCH_OPEN_SENTINEL).join('\uFFFD').split(MATCH_CLOSE_SENTINEL).join('\uFFFD');
}

/**
 * Turns sentinel-marked text into what the model reads: matches wrapped in `open` and `close`;
 * a character of the text that also occurs in a marker is escaped with a backslash, and so is a
 * backslash that comes before a backslash, a marker character or a match. Read back, a backslash
 * followed by a backslash or a marker character stands for that character; an unescaped marker is
 * always a match boundary.
 */
export function renderMarkedText(marked: string, open: string, close: string): string {
  const special = new Set([...open, ...close]);
  const characters = [...marked];
  let output = '';
  characters.forEach((character, index) => {
    if (character === MATCH_OPEN_SENTINEL) output += open;
    else if (character === MATCH_CLOSE_SENTINEL) output += close;
    else if (special.has(character)) output += `\\${character}`;
    else if (character === '\\') {
      const next = characters[index + 1];
      const ambiguous =
        next !== undefined &&
        (next === '\\' || special.has(next) || next === MATCH_OPEN_SENTINEL || next === MATCH_CLOSE_SENTINEL);
      output += ambiguous ? '\\\\' : '\\';
    } else output += character;
  });
  return output;
}
