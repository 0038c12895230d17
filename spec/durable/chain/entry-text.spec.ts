import canonicalize from 'canonicalize';
import { entryText } from '../../../lib/durable/chain/chain-digest';
import type { RecordChainEntry } from '../../../lib/durable';

/** What the chain digested before entries were written out directly: the `canonicalize` package's text. */
function reference(runId: string, entry: Omit<RecordChainEntry, 'digest'>, previous: string | undefined): string {
  return canonicalize({
    form: 'wuwe-record-chain/1',
    runId,
    index: entry.index,
    previous: previous ?? null,
    kind: entry.kind,
    subject: entry.subject,
    entitySha256: entry.entitySha256,
    source: entry.source,
    keyId: entry.keyId ?? null,
  })!;
}

const awkward = [
  '',
  'plain',
  'quote " and backslash \\',
  'controls \u0000\u0001\u001f\u007f and \n\r\t',
  'lone high \ud800 and lone low \udc00',
  'pair \ud83d\ude00 and U+2028 \u2028 U+2029 \u2029',
  'non-BMP 𝄞 and accents é ü',
  '</script><!--',
];

describe('the text an entry digest is computed over', () => {
  it('is the canonical JSON of the entry for every kind of string, with and without key id and previous digest', () => {
    let checked = 0;
    for (const text of awkward)
      for (const keyId of [undefined, text])
        for (const previous of [undefined, text]) {
          const entry = {
            index: checked,
            kind: 'message_appended',
            subject: `message:${text}`,
            entitySha256: text,
            source: 'write',
            ...(keyId === undefined ? {} : { keyId }),
          } as Omit<RecordChainEntry, 'digest'>;
          expect(entryText(`run ${text}`, entry, previous)).toBe(reference(`run ${text}`, entry, previous));
          checked++;
        }
    expect(checked).toBe(awkward.length * 4);
  });

  it('is the canonical JSON of an entry edited to hold other types', () => {
    const edited = [
      { index: 1.5, kind: 'call_started', subject: 's', entitySha256: 'e', source: 'write' },
      { index: 2, kind: { b: 1, a: [2, 'x'] }, subject: 's', entitySha256: 'e', source: 'write' },
      { index: 3, kind: 'k', subject: 7, entitySha256: null, source: 'write', keyId: 9 },
    ] as unknown as Omit<RecordChainEntry, 'digest'>[];
    for (const entry of edited) expect(entryText('run', entry, 'head')).toBe(reference('run', entry, 'head'));
  });
});
