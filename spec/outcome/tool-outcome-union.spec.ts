import { standardFailure, ToolOutcome, toolText } from '../../lib';

/** Compiles only while ToolOutcome is a union on `ok`: a failure's `error` needs no `?.` or `!`. */
function describeOutcome(outcome: ToolOutcome): string {
  if (!outcome.ok) return `failed: ${outcome.error.code} (${outcome.error.category})`;
  // @ts-expect-error a success carries no error
  const error: { code: string } = outcome.error;
  return `ok: ${outcome.text ?? ''}${error === undefined ? '' : '!'}`;
}

describe('ToolOutcome', () => {
  it('narrows on ok: a failure always has its error', () => {
    expect(describeOutcome(standardFailure('not_found', 'no such city'))).toBe('failed: not_found (not_found)');
    expect(describeOutcome(toolText('22 degrees'))).toBe('ok: 22 degrees');
  });
});
