import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Contract, Field, parseToolArguments, Tool } from '../../lib';
import { fieldTraits, makeLlmTool } from '../../lib/tools';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/**
 * Defines, uses and drops a tool class (as a plugin host or a per-tenant factory would), returning a weak reference to
 * it.
 */
function defineAndDrop(): WeakRef<Function> {
  @Tool({ description: 'A class made at run time.' })
  @Contract({ sideEffect: 'read' })
  class Transient {
    invoke(): void {}
    @Field() city!: string;
  }
  fieldTraits(Transient, 'city', { description: 'City.' });
  makeLlmTool(Transient);
  parseToolArguments(Transient, { city: 'Oslo' });
  return new WeakRef(Transient);
}

describe('ToolMetadataStorage', () => {
  it('does not keep tool classes alive once nothing else refers to them', async () => {
    const references = Array.from({ length: 5 }, defineAndDrop);
    for (let attempt = 0; attempt < 10 && references.some((reference) => reference.deref() !== undefined); attempt++) {
      await new Promise((resolve) => setImmediate(resolve));
      collectGarbage();
    }
    expect(references.filter((reference) => reference.deref() !== undefined)).toHaveLength(0);
  });
});
