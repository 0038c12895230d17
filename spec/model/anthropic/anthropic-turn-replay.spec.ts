import type Anthropic from '@anthropic-ai/sdk';
import { AnthropicTurnReplay } from '../../../lib/model/anthropic/anthropic-turn-replay';
import { ModelToolCall } from '../../../lib/model/model-types';

const thinking = { type: 'thinking', thinking: 'hmm', signature: 's' } as Anthropic.Messages.ContentBlock;

function toolUse(id: string): Anthropic.Messages.ContentBlock {
  return { type: 'tool_use', id, name: 'a', input: {}, caller: { type: 'direct' } };
}

describe('AnthropicTurnReplay', () => {
  it('does not remember turns that rebuild exactly from text and tool calls', () => {
    const replay = new AnthropicTurnReplay();
    const calls: ModelToolCall[] = [{ id: 't1', name: 'a', arguments: {} }];
    replay.remember(calls, 'hi', [{ type: 'text', text: 'hi', citations: null }, toolUse('t1')]);
    expect(replay.find({ role: 'assistant', content: 'hi', toolCalls: calls })).toBeUndefined();
  });

  it('finds a turn by identity of its tool-call array, or by equal text and tool-call ids', () => {
    const replay = new AnthropicTurnReplay();
    const calls: ModelToolCall[] = [{ id: 't1', name: 'a', arguments: {} }];
    const content = [thinking, toolUse('t1')];
    replay.remember(calls, '', content);

    expect(replay.find({ role: 'assistant', content: '', toolCalls: calls })).toBe(content);
    expect(replay.find({ role: 'assistant', content: '', toolCalls: [{ ...calls[0] }] })).toBe(content);
    expect(replay.find({ role: 'assistant', content: 'changed', toolCalls: calls })).toBeUndefined();
    expect(
      replay.find({ role: 'assistant', content: '', toolCalls: [{ id: 't2', name: 'a', arguments: {} }] }),
    ).toBeUndefined();
  });

  it('forgets the oldest turn beyond its capacity', () => {
    const replay = new AnthropicTurnReplay(2);
    for (const id of ['t1', 't2', 't3'])
      replay.remember([{ id, name: 'a', arguments: {} }], '', [thinking, toolUse(id)]);
    const copy = (id: string) => ({
      role: 'assistant' as const,
      content: '',
      toolCalls: [{ id, name: 'a', arguments: {} }],
    });
    expect(replay.find(copy('t1'))).toBeUndefined();
    expect(replay.find(copy('t2'))).toBeDefined();
    expect(replay.find(copy('t3'))).toBeDefined();
  });
});
