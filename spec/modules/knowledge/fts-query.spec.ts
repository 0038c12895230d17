import { toFtsMatchQuery } from '../../../lib/modules/knowledge/fts-query';

describe('toFtsMatchQuery', () => {
  it('quotes each distinct word and joins with OR by default, AND on request', () => {
    expect(toFtsMatchQuery('Deploy the deploy script')).toBe('"deploy" OR "the" OR "script"');
    expect(toFtsMatchQuery('rollback plan', { mode: 'all' })).toBe('"rollback" AND "plan"');
  });

  it('keeps FTS5 operators and syntax as plain words', () => {
    expect(toFtsMatchQuery('NEAR(a b) AND title:x* ^y "z')).toBe(
      '"near" OR "a" OR "b" OR "and" OR "title" OR "x" OR "y" OR "z"',
    );
  });

  it('keeps letters and digits of any script and drops the rest', () => {
    expect(toFtsMatchQuery('café 東京 42 🙂')).toBe('"café" OR "東京" OR "42"');
    expect(toFtsMatchQuery('"*(): 🙂')).toBeUndefined();
  });

  it('bounds the number and length of terms', () => {
    const query = toFtsMatchQuery(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' '), { maxTerms: 3 });
    expect(query).toBe('"w0" OR "w1" OR "w2"');
    expect(toFtsMatchQuery('a'.repeat(100), { maxTermLength: 5 })).toBe('"aaaaa"');
  });
});
