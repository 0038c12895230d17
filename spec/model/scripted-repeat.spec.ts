import { ScriptedModelClient } from '../../lib';

describe('ScriptedModelClient options', () => {
  const request = () => ({ messages: [], tools: [], signal: new AbortController().signal });

  it("whenExhausted: 'repeat' starts the script again; recordRequests: false keeps nothing", async () => {
    const model = new ScriptedModelClient([{ text: 'one' }, { text: 'two' }], {
      whenExhausted: 'repeat',
      recordRequests: false,
    });
    const texts = [];
    for (let i = 0; i < 5; i++) texts.push((await model.step(request())).text);
    expect(texts).toEqual(['one', 'two', 'one', 'two', 'one']);
    expect(model.requests).toHaveLength(0);
  });

  it('by default an exhausted script throws a typed error', async () => {
    const model = new ScriptedModelClient([{ text: 'one' }]);
    await model.step(request());
    await expect(model.step(request())).rejects.toMatchObject({ code: 'script_exhausted' });
    expect(model.requests).toHaveLength(2);
  });
});
