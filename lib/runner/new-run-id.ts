import { randomFillSync } from 'node:crypto';

/** Ids formatted per refill of the pool: 8 KiB of random bytes and 18 KiB of text, kept for the process. */
const IDS_PER_REFILL = 512;
const ID_BYTES = 16;
const ID_CHARS = 36;
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const DASH = 0x2d;

const randomBytes = Buffer.alloc(IDS_PER_REFILL * ID_BYTES);
const idText = Buffer.alloc(IDS_PER_REFILL * ID_CHARS);
let nextId = IDS_PER_REFILL;

/**
 * A new random run id: an RFC 9562 version 4 UUID in lower case (`xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx`),
 * 122 bits from the platform's cryptographic generator, as `crypto.randomUUID()` gives. Cheaper per run:
 * `randomUUID` builds its text by joining some twenty pieces, a rope of about 600 bytes that the first
 * `Map` lookup by the id (memory, streams, stores) must flatten; here 512 ids are drawn with one
 * `randomFillSync` and written as ASCII into a buffer, and each id is one flat string sliced from it.
 * Like `randomUUID`'s own entropy cache, ids drawn but not yet handed out stay in the process's memory.
 * @internal
 */
export function newRunId(): string {
  if (nextId === IDS_PER_REFILL) refill();
  const start = nextId++ * ID_CHARS;
  return idText.toString('latin1', start, start + ID_CHARS);
}

/** Draws the random bytes of the next {@link IDS_PER_REFILL} ids and writes their text. */
function refill(): void {
  randomFillSync(randomBytes);
  for (let id = 0; id < IDS_PER_REFILL; id++) {
    const from = id * ID_BYTES;
    // Version 4 in the high nibble of byte 6, variant 10 in the high bits of byte 8.
    randomBytes[from + 6] = (randomBytes[from + 6] & 0x0f) | 0x40;
    randomBytes[from + 8] = (randomBytes[from + 8] & 0x3f) | 0x80;
    let at = id * ID_CHARS;
    for (let index = 0; index < ID_BYTES; index++) {
      if (index === 4 || index === 6 || index === 8 || index === 10) idText[at++] = DASH;
      const byte = randomBytes[from + index];
      idText[at++] = HEX_DIGITS[byte >> 4];
      idText[at++] = HEX_DIGITS[byte & 0x0f];
    }
  }
  // The random bytes are in the text now; the raw copy is not kept.
  randomBytes.fill(0);
  nextId = 0;
}
