import { dropAbsentNulls } from '../../lib/validation/absent-nulls';

const schema = {
  type: 'object',
  properties: {
    city: { type: 'string' },
    note: { type: 'string' },
    clearable: { type: ['string', 'null'] },
    address: {
      type: 'object',
      properties: { street: { type: 'string' }, zip: { type: 'string' } },
      required: ['street'],
    },
    stops: { type: 'array', items: { $ref: '#/$defs/Stop' } },
  },
  required: ['city'],
  $defs: {
    Stop: { type: 'object', properties: { at: { type: 'integer' }, label: { type: 'string' } }, required: ['at'] },
  },
};

describe('dropAbsentNulls', () => {
  it('leaves out nulls of optional properties whose schema refuses null, at every depth', () => {
    const value = {
      city: 'Oslo',
      note: null,
      address: { street: 'Main', zip: null },
      stops: [
        { at: 1, label: null },
        { at: 2, label: 'b' },
      ],
    };
    expect(dropAbsentNulls(value, schema)).toEqual({
      city: 'Oslo',
      address: { street: 'Main' },
      stops: [{ at: 1 }, { at: 2, label: 'b' }],
    });
    expect(value.note).toBeNull();
  });

  it('keeps a null for a required property (validation refuses it) and where the schema accepts null', () => {
    expect(dropAbsentNulls({ city: null, clearable: null, address: { street: null } }, schema)).toEqual({
      city: null,
      clearable: null,
      address: { street: null },
    });
  });

  it('keeps unknown properties as they are and a __proto__ key as an own property', () => {
    const value = JSON.parse('{"city":"x","__proto__":{"polluted":true},"extra":null}');
    const result = dropAbsentNulls(value, schema);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(['city', '__proto__', 'extra']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
