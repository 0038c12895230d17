/**
 * The weather tool every runner benchmark times: its plain async function, the same tool as a
 * reflected `@Tool` class, and its input schema as JSON Schema (for the floor's precompiled ajv).
 */
import { Field, Tool } from '../lib';

/** What the tool answers. */
export interface Weather {
  readonly city: string;
  readonly degrees: number;
}

/** The tool's input schema, as the reflected class produces it. */
export const weatherInputSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' } },
  required: ['city'],
  additionalProperties: false,
};

/** The tool's work, as a plain async function. */
export async function weatherAsync(args: { city: string }): Promise<Weather> {
  return { city: args.city, degrees: 22 };
}

/** The same tool as a reflected class. */
@Tool({ name: 'get_weather', description: 'Get the weather.' })
export class GetWeather {
  @Field({ description: 'City name.' }) city!: string;
  @Field({ description: 'Unit.', enum: ['celsius', 'fahrenheit'], default: 'celsius' }) unit?: string;
  async invoke(): Promise<Weather> {
    return weatherAsync(this);
  }
}
