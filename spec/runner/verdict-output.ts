import { z } from 'zod';
import { Field } from '../../lib';
import { FunctionProvider } from './support';

/** A structured final answer as a decorated class, with a method to show the output is an instance. */
export class Verdict {
  @Field({ description: 'The city.' }) city!: string;
  @Field({ description: 'Degrees Celsius.' }) degrees!: number;
  @Field({ description: 'Worth going out?', optional: true }) goOut?: boolean;

  summary(): string {
    return `${this.city}: ${this.degrees}`;
  }
}

/** The same answer as a Standard Schema (zod), with a bounded number and a default. */
export const VerdictSchema = z.object({
  city: z.string(),
  degrees: z.number().min(-90).max(60),
  goOut: z.boolean().default(true),
});

/** A provider with one `weather` tool that answers 22 degrees. */
export function weatherProvider(): FunctionProvider {
  return new FunctionProvider().add('weather', () => ({ degrees: 22 }), {}, { city: { type: 'string' } });
}
