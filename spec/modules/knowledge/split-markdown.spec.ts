import { splitMarkdown } from '../../../lib/modules/knowledge/split-markdown';
import { packParagraphs } from '../../../lib/modules/knowledge/pack-passages';

describe('splitMarkdown', () => {
  it('tracks the heading path, fills skipped levels, and ignores headings inside fences', () => {
    const split = splitMarkdown(
      '# Title\n\nintro\n\n### Deep\n\ndeep text\n\n## Section\n\n```\n# comment\n```\n\nafter',
      500,
    );
    expect(split.title).toBe('Title');
    expect(split.passages).toEqual([
      { heading: 'Title', text: 'intro' },
      { heading: 'Title > Deep', text: 'deep text' },
      { heading: 'Title > Section', text: '```\n# comment\n```\n\nafter' },
    ]);
  });

  it('keeps text before the first heading with an empty heading, and drops front matter', () => {
    expect(splitMarkdown('---\ntitle: x\n---\npreamble\n\n## Later\n\nbody', 500)).toEqual({
      passages: [
        { heading: '', text: 'preamble' },
        { heading: 'Later', text: 'body' },
      ],
    });
  });
});

describe('packParagraphs', () => {
  it('packs paragraphs up to the limit and cuts a long one at sentence ends', () => {
    expect(packParagraphs(['aaa', 'bbb', 'ccc'], 8)).toEqual(['aaa\n\nbbb', 'ccc']);
    const long = 'One two three. Four five six. Seven eight nine.';
    const pieces = packParagraphs([long], 20);
    expect(pieces.every((piece) => piece.length <= 20)).toBe(true);
    expect(pieces.join(' ')).toBe(long);
    expect(pieces[0]).toBe('One two three.');
  });

  it('never splits a surrogate pair when it must cut inside a word', () => {
    const pieces = packParagraphs(['😀'.repeat(150)], 201);
    expect(pieces.join('')).toBe('😀'.repeat(150));
    for (const piece of pieces) expect(piece.isWellFormed()).toBe(true);
  });
});
