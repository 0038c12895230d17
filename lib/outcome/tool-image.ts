/** The image media types a tool outcome may carry to the model: the ones every supported provider takes. */
export const TOOL_IMAGE_MEDIA_TYPES = Object.freeze(['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const);

/** One of {@link TOOL_IMAGE_MEDIA_TYPES}. */
export type ToolImageMediaType = (typeof TOOL_IMAGE_MEDIA_TYPES)[number];

/**
 * An image a tool returns for the model to see (a screenshot, a chart, a rendered page): inline
 * base64 `data` of one of {@link TOOL_IMAGE_MEDIA_TYPES}, whose first bytes must match the media type.
 * Images come inline only: wuwe never reads a file or fetches a URL on a tool's behalf (an
 * {@link tools!ToolArtifact}'s `uri` stays a reference the model never gets).
 */
export interface ToolImage {
  readonly mediaType: ToolImageMediaType;
  /** The image's bytes, base64 (standard alphabet, padded). */
  readonly data: string;
}

/** A success outcome's field for images, built from raw bytes: `{ mediaType, data: base64 of bytes }`. */
export function toolImage(bytes: Uint8Array, mediaType: ToolImageMediaType): ToolImage {
  return { mediaType, data: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
}

/** Bytes the base64 text `data` decodes to (exact for well-formed, padded base64). */
export function base64ByteLength(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return (data.length / 4) * 3 - padding;
}

/**
 * The problem with an outcome's `images`, or `undefined` when it is well formed: an array of plain
 * objects with exactly `mediaType` (one of {@link TOOL_IMAGE_MEDIA_TYPES}) and `data` (padded base64
 * whose first bytes are that format's signature). Any other key (`__proto__`, `url`, `uri`) is refused.
 */
export function toolImagesProblem(images: unknown): string | undefined {
  if (!Array.isArray(images)) return 'images must be an array';
  for (const [index, image] of (images as unknown[]).entries()) {
    const problem = toolImageProblem(image);
    if (problem !== undefined) return `images[${index}]: ${problem}`;
  }
  return undefined;
}

/**
 * The problem with one image of an outcome or a Tool message part (see {@link toolImagesProblem}); `allowed` are its
 * other permitted keys.
 */
export function toolImageProblem(image: unknown, allowed: readonly string[] = []): string | undefined {
  if (typeof image !== 'object' || image === null || Array.isArray(image))
    return 'an image must be an object with mediaType and data';
  const prototype: unknown = Object.getPrototypeOf(image);
  if (prototype !== Object.prototype && prototype !== null) return 'an image must be a plain object';
  const extra = Object.keys(image).filter((key) => key !== 'mediaType' && key !== 'data' && !allowed.includes(key));
  if (extra.length > 0)
    return `unexpected key ${JSON.stringify(extra[0])} (an image has mediaType and data only; URLs and files are never read)`;
  const { mediaType, data } = image as Record<string, unknown>;
  if (!(TOOL_IMAGE_MEDIA_TYPES as readonly unknown[]).includes(mediaType))
    return `media type ${JSON.stringify(mediaType)} is not one of ${TOOL_IMAGE_MEDIA_TYPES.join(', ')}`;
  if (typeof data !== 'string' || data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data))
    return 'data must be non-empty, padded base64';
  if (!signatureMatches(mediaType as ToolImageMediaType, data))
    return `data does not start with the signature of ${String(mediaType)}`;
  return undefined;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** File signatures of the allowed formats (WebP: `RIFF` then `WEBP` at byte 8). */
function signatureMatches(mediaType: ToolImageMediaType, data: string): boolean {
  const head = Buffer.from(data.slice(0, 24), 'base64');
  const starts = (bytes: readonly number[], at = 0): boolean => bytes.every((byte, index) => head[at + index] === byte);
  switch (mediaType) {
    case 'image/png':
      return starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'image/jpeg':
      return starts([0xff, 0xd8, 0xff]);
    case 'image/gif':
      return starts([0x47, 0x49, 0x46, 0x38]);
    case 'image/webp':
      return starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8);
  }
}
