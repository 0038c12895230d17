import { renderToolMessage } from '../../lib/tools';
import { toolData, toolFailure, toolText } from '../../lib';

describe('renderToolMessage', () => {
  it('renders a text success as its text', () => {
    expect(renderToolMessage(toolText('Tokyo is 22 degrees.'))).toBe('Tokyo is 22 degrees.');
  });

  it('renders structured data as its JSON', () => {
    expect(renderToolMessage(toolData({ temperature: 22, city: 'Tokyo' }))).toBe('{"temperature":22,"city":"Tokyo"}');
  });

  it('renders a failure as the explicit ok:false object with standard category', () => {
    expect(renderToolMessage(toolFailure({ code: 'timeout', message: 'deadline 100 ms passed' }))).toBe(
      '{"ok":false,"error":{"code":"timeout","category":"timeout","message":"deadline 100 ms passed","retryable":true}}',
    );
  });

  it('accepts a literal failure object', () => {
    const literal = {
      ok: false as const,
      error: { code: 'x', category: 'internal' as const, message: 'm', retryable: false },
    };
    expect(JSON.parse(renderToolMessage(literal))).toEqual(literal);
  });
});
