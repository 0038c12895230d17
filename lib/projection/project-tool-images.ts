import { ToolMessagePart } from '../model/model-types';
import { base64ByteLength, toolImageProblem } from '../outcome/tool-image';
import { ToolOutcome } from '../outcome/tool-outcome';
import { ToolImagePolicy } from './tool-image-policy';

/** Why an image of an outcome was not sent to the model. */
export type ToolImageOmission = 'too_large' | 'too_many' | 'invalid' | 'failure';

/** What the image projection did with an outcome's `images`. */
export interface ToolImageProjectionReport {
  /** Images sent. */
  readonly sent: number;
  /** Decoded bytes of the images sent. */
  readonly sentBytes: number;
  /** Images not sent, in outcome order: index in `images`, decoded bytes (0 when not measurable) and why. */
  readonly omitted: readonly { readonly index: number; readonly bytes: number; readonly reason: ToolImageOmission }[];
  /** The limits applied. */
  readonly maxImageBytes: number;
  readonly maxImages: number;
}

/** The parts of a Tool message and their report; `undefined` when the outcome has no images. */
export interface ToolImageProjection {
  /** Images, and one text note per omitted image (all the `too_many` ones share one note). */
  readonly parts: readonly ToolMessagePart[];
  readonly report: ToolImageProjectionReport;
}

/**
 * Projects an outcome's images for the model under `policy`: a success's well-formed images within
 * the limits become `image` parts, in order; an image over `maxImageBytes`, past `maxImages`, or
 * malformed (an outcome that did not come through a tool's checks, e.g. rewritten by a hook) becomes
 * a text note. A failure's images are not sent (no parts, each reported as `failure`). Never throws,
 * never reads a file or a URL.
 */
export function projectToolImages(outcome: ToolOutcome, policy: ToolImagePolicy): ToolImageProjection | undefined {
  const images: unknown = outcome.images;
  if (!Array.isArray(images) || images.length === 0) return undefined;
  const parts: ToolMessagePart[] = [];
  const omitted: { index: number; bytes: number; reason: ToolImageOmission }[] = [];
  let sent = 0;
  let sentBytes = 0;
  let tooMany = 0;
  (images as unknown[]).forEach((image, index) => {
    const wellFormed = toolImageProblem(image) === undefined;
    const { mediaType, data } = (wellFormed ? image : { mediaType: '', data: '' }) as {
      mediaType: string;
      data: string;
    };
    const bytes = wellFormed ? base64ByteLength(data) : 0;
    if (!outcome.ok) omitted.push({ index, bytes, reason: 'failure' });
    else if (!wellFormed) {
      omitted.push({ index, bytes, reason: 'invalid' });
      parts.push({ type: 'text', text: `[image ${index} omitted: not a well-formed PNG, JPEG, GIF or WebP image]` });
    } else if (bytes > policy.maxImageBytes) {
      omitted.push({ index, bytes, reason: 'too_large' });
      parts.push({
        type: 'text',
        text: `[image ${index} (${mediaType}, ${bytes} bytes) omitted: over the limit of ${policy.maxImageBytes} bytes per image]`,
      });
    } else if (sent >= policy.maxImages) {
      omitted.push({ index, bytes, reason: 'too_many' });
      tooMany++;
    } else {
      parts.push({ type: 'image', mediaType, data });
      sent++;
      sentBytes += bytes;
    }
  });
  if (tooMany > 0)
    parts.push({
      type: 'text',
      text: `[${tooMany} more image${tooMany === 1 ? '' : 's'} omitted: at most ${policy.maxImages} per tool result]`,
    });
  const report = { sent, sentBytes, omitted, maxImageBytes: policy.maxImageBytes, maxImages: policy.maxImages };
  return { parts, report };
}
