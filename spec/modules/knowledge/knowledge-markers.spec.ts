import { KnowledgeIndex } from '../../../lib/modules/knowledge/knowledge-index';
import { KnowledgeIndexError } from '../../../lib/modules/knowledge/knowledge-index-error';
import { KnowledgeToolProvider } from '../../../lib/modules/knowledge/knowledge-tool-provider';

/**
 * Reads marked output back: a backslash before a backslash or a marker character stands for that
 * character (any other backslash is itself); an unescaped marker opens or closes a match.
 */
function parseMarked(output: string, open: string, close: string): { text: string; matches: string[] } {
  let text = '';
  const matches: string[] = [];
  const special = new Set([...open, ...close, '\\']);
  let current: string | undefined;
  for (let i = 0; i < output.length;) {
    if (output[i] === '\\' && i + 1 < output.length && special.has(output[i + 1])) {
      text += output[i + 1];
      if (current !== undefined) current += output[i + 1];
      i += 2;
    } else if (current === undefined && output.startsWith(open, i)) {
      current = '';
      i += open.length;
    } else if (current !== undefined && output.startsWith(close, i)) {
      matches.push(current);
      current = undefined;
      i += close.length;
    } else {
      text += output[i];
      if (current !== undefined) current += output[i];
      i += 1;
    }
  }
  return { text, matches };
}

describe('KnowledgeIndex match markers', () => {
  const bodies = [
    'Use **bold** for emphasis around the needle.',
    'Math: x**2 + needle*3 and *needle* in italics.',
    'A Windows path C:\\needle\\* and a trailing backslash \\',
    'Backslash before the match \\needle and \\\\needle.',
  ];

  it.each(bodies)('marks matches so that they read back unambiguously: %s', (body) => {
    const index = new KnowledgeIndex();
    index.addDocument({ source: 'a.txt', text: body });
    const [hit] = index.search('needle');
    const parsed = parseMarked(hit.passage, '**', '**');
    expect(parsed.text).toBe(body);
    expect(parsed.matches.length).toBeGreaterThan(0);
    for (const match of parsed.matches) expect(match.toLowerCase()).toBe('needle');
    const snippet = parseMarked(hit.snippet, '**', '**');
    expect(snippet.matches.every((match) => match.toLowerCase() === 'needle')).toBe(true);
    expect(body).toContain(snippet.text.replace(/^…|…$/g, ''));
  });

  it('never lets a document fake a match with the characters the index marks matches with internally', () => {
    const index = new KnowledgeIndex();
    index.addDocument({ source: 'a.txt', text: 'fake \u0001mark\u0002 and a needle' });
    const parsed = parseMarked(index.search('needle')[0].passage, '**', '**');
    expect(parsed.matches).toEqual(['needle']);
    expect(parsed.text).toBe('fake \uFFFDmark\uFFFD and a needle');
  });

  it('keeps Markdown bold in the source apart from a match', () => {
    const index = new KnowledgeIndex();
    index.addDocument({ source: 'a.md', text: 'The **important** needle.' });
    expect(index.search('needle')[0].passage).toBe('The \\*\\*important\\*\\* **needle**.');
  });

  it('works the same with custom markers, and refuses markers that could not be escaped', () => {
    const index = new KnowledgeIndex(':memory:', { highlightOpen: '[[', highlightClose: ']]' });
    index.addDocument({ source: 'a.txt', text: 'Links [[needle]] and needle.' });
    const parsed = parseMarked(index.search('needle')[0].passage, '[[', ']]');
    expect(parsed.text).toBe('Links [[needle]] and needle.');
    expect(parsed.matches).toEqual(['needle', 'needle']);
    for (const [open, close] of [
      ['<b>', '</b>'],
      ['', '*'],
      [' ', ' '],
      ['\\', '/'],
    ])
      expect(() => new KnowledgeIndex(':memory:', { highlightOpen: open, highlightClose: close })).toThrow(
        KnowledgeIndexError,
      );
  });

  it('says in the tool description which markers it uses and how text is escaped', () => {
    const provider = new KnowledgeToolProvider({
      index: new KnowledgeIndex(':memory:', { highlightOpen: '[[', highlightClose: ']]' }),
    });
    const description = provider.listTools()[0].description;
    expect(description).toContain('[[');
    expect(description).toContain(']]');
    expect(description).toContain('backslash');
  });
});
