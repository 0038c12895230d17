import { toStrictSchema } from '../../../lib/model/openai';

describe('toStrictSchema', () => {
  it('requires every property, makes optional ones nullable, and closes every object, nested ones too', () => {
    const schema = {
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: 'string', enum: ['C', 'F'] },
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, zip: { type: 'string' } },
          required: ['street'],
        },
        stops: {
          type: 'array',
          items: {
            type: 'object',
            properties: { at: { type: 'integer' }, label: { type: 'string' } },
            required: ['at'],
          },
        },
        home: { $ref: '#/$defs/Place' },
        maybe: { type: ['string', 'null'] },
      },
      required: ['city', 'stops'],
      $defs: { Place: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false } },
    };
    const original = JSON.stringify(schema);

    expect(toStrictSchema(schema)).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string' },
        unit: { type: ['string', 'null'], enum: ['C', 'F', null] },
        address: {
          type: ['object', 'null'],
          properties: { street: { type: 'string' }, zip: { type: ['string', 'null'] } },
          required: ['street', 'zip'],
          additionalProperties: false,
        },
        stops: {
          type: 'array',
          items: {
            type: 'object',
            properties: { at: { type: 'integer' }, label: { type: ['string', 'null'] } },
            required: ['at', 'label'],
            additionalProperties: false,
          },
        },
        home: { anyOf: [{ $ref: '#/$defs/Place' }, { type: 'null' }] },
        maybe: { type: ['string', 'null'] },
      },
      required: ['city', 'unit', 'address', 'stops', 'home', 'maybe'],
      additionalProperties: false,
      $defs: {
        Place: {
          type: 'object',
          properties: { name: { type: ['string', 'null'] } },
          required: ['name'],
          additionalProperties: false,
        },
      },
    });
    expect(JSON.stringify(schema)).toBe(original);
  });

  it('has no strict form for free-form objects (records, maps, untyped objects)', () => {
    expect(
      toStrictSchema({
        type: 'object',
        properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } },
      }),
    ).toBeUndefined();
    expect(
      toStrictSchema({ type: 'object', properties: { any: { type: 'object' } }, required: ['any'] }),
    ).toBeUndefined();
    expect(
      toStrictSchema({ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true }),
    ).toBeUndefined();
  });

  it('keeps an object with no properties that is closed', () => {
    expect(toStrictSchema({ type: 'object', properties: {}, additionalProperties: false })).toEqual({
      type: 'object',
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });
});
