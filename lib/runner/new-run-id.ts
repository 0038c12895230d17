import { randomUUID } from 'node:crypto';

/** A new random run id: `crypto.randomUUID()`, an RFC 9562 version 4 UUID in lower case. @internal */
export function newRunId(): string {
  return randomUUID();
}
