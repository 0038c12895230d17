import { main } from '../../samples/01-define-a-tool/main';

describe('samples/01-define-a-tool/main', () => {
  it('prints the tool, a successful call and a refused call', async () => {
    const printed: string[] = [];
    const output = await main((line) => printed.push(line));

    expect(output.lines).toEqual(printed);
    expect(printed).toHaveLength(4);

    expect(output.tool).toEqual({
      name: 'GetWeather',
      description: 'Get the current weather for a city.',
      inputSchema: {
        type: 'object',
        properties: {
          city: { type: 'string', description: 'City name.' },
          unit: {
            type: 'string',
            enum: ['celsius', 'fahrenheit'],
            default: 'celsius',
            description: 'Preferred temperature unit.',
          },
        },
        required: ['city'],
        additionalProperties: false,
      },
    });
    expect(printed[0]).toContain('"name": "GetWeather"');

    expect(output.tokyo).toEqual({ ok: true, text: 'Tokyo is 22 degrees.' });
    expect(printed[1]).toBe('GetWeather {"city":"Tokyo"} -> {"ok":true,"text":"Tokyo is 22 degrees."}');

    expect(output.refused.ok).toBe(false);
    expect(output.refused.error).toMatchObject({ code: 'invalid_arguments', category: 'validation', retryable: false });
    const issues = (output.refused.error!.details as { issues: Array<{ pointer: string; keyword: string }> }).issues;
    expect(issues.map((issue) => `${issue.pointer} ${issue.keyword}`).sort()).toEqual([
      '/city required',
      '/country additionalProperties',
      '/unit enum',
    ]);
    expect(printed[2]).toContain('"code":"invalid_arguments"');
  });
});

describe('samples/weather: the README runner example', () => {
  it('binds the tool and completes a two-step run offline', async () => {
    const names = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'];
    const saved = names.map((name) => process.env[name]);
    for (const name of names) delete process.env[name];
    try {
      const { run, lines } = await main(() => undefined);
      expect(run.stopReason).toBe('end_turn');
      expect(run.toolCalls[0].outcome).toEqual({ ok: true, text: 'Tokyo is 22 degrees.' });
      expect(run.text).toBe('According to the tool: Tokyo is 22 degrees.');
      expect(lines[lines.length - 1]).toContain('According to the tool: Tokyo is 22 degrees.');
    } finally {
      names.forEach((name, index) => {
        if (saved[index] !== undefined) process.env[name] = saved[index];
      });
    }
  });
});
