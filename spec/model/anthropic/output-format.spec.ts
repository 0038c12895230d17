import { JsonSchema } from '../../../lib/contract/json-schema';
import { toClaudeOutputSchema } from '../../../lib/model/anthropic/output-format';

describe("toClaudeOutputSchema: a schema under the rules of Claude's structured outputs", () => {
  it('closes every object, keeps what Claude enforces and moves the other keywords into the description', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        city: { type: 'string', description: 'The city.', minLength: 1, pattern: '^[A-Z]' },
        when: { type: 'string', format: 'date' },
        code: { type: 'string', format: 'iata' },
        degrees: { type: 'number', minimum: -90, maximum: 60 },
        tags: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          minItems: 1,
          maxItems: 3,
        },
        unit: { enum: ['C', 'F'] },
        shape: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      },
      required: ['city'],
      additionalProperties: false,
    };
    const before = JSON.stringify(schema);
    const claude = toClaudeOutputSchema(schema) as any;
    expect(JSON.stringify(schema)).toBe(before);
    expect(claude).toMatchObject({ type: 'object', required: ['city'], additionalProperties: false });
    expect(claude.properties.city).toEqual({
      type: 'string',
      description: 'The city.\n\n{minLength: 1, pattern: "^[A-Z]"}',
    });
    expect(claude.properties.when).toEqual({ type: 'string', format: 'date' });
    expect(claude.properties.code).toEqual({ type: 'string', description: '{format: "iata"}' });
    expect(claude.properties.degrees).toEqual({ type: 'number', description: '{minimum: -90, maximum: 60}' });
    expect(claude.properties.tags).toMatchObject({
      minItems: 1,
      description: '{maxItems: 3}',
      items: { additionalProperties: false, required: ['name'] },
    });
    expect(claude.properties.unit).toEqual({ enum: ['C', 'F'] });
    expect(claude.properties.shape).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
  });

  it('has no form for a free-form object (a record or map), however deep', () => {
    expect(
      toClaudeOutputSchema({
        type: 'object',
        properties: { counts: { type: 'object', additionalProperties: { type: 'number' } } },
      }),
    ).toBeUndefined();
    expect(
      toClaudeOutputSchema({ type: 'object', properties: { list: { type: 'array', items: { type: 'object' } } } }),
    ).toBeUndefined();
    expect(
      toClaudeOutputSchema({ type: 'object', properties: {}, patternProperties: { '^x': { type: 'string' } } }),
    ).toBeUndefined();
    expect(toClaudeOutputSchema({ type: 'object', properties: {} })).toEqual({
      type: 'object',
      properties: {},
      additionalProperties: false,
    });
  });
});
