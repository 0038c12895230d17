import { ToolOutputProjectionPolicyError } from './tool-output-projection-policy-error';

/**
 * Limits of the images a tool outcome sends to the model (`ToolOutcome.images`), apart from the text
 * ceilings of the Tool message. An image over a limit is not sent: the model gets a short note in its
 * place and the projection report lists it; nothing fails.
 */
export interface ToolImagePolicy {
  /** Decoded bytes of one image. @default 5_242_880 (5 MiB, Anthropic's per-image limit) */
  readonly maxImageBytes: number;
  /** Images of one outcome; the ones after the first `maxImages` are omitted. `0` sends none. @default 8 */
  readonly maxImages: number;
}

/** The image limits when a run sets none: 5 MiB per image, 8 images per outcome. */
export const DEFAULT_TOOL_IMAGE_POLICY: ToolImagePolicy = Object.freeze({ maxImageBytes: 5_242_880, maxImages: 8 });

/**
 * Checks an image policy at configuration time: `maxImageBytes` a safe integer >= 1, `maxImages` a
 * safe integer >= 0.
 *
 * @throws {@link ToolOutputProjectionPolicyError} `invalid_policy`.
 */
export function checkToolImagePolicy(policy: unknown): asserts policy is ToolImagePolicy {
  if (typeof policy !== 'object' || policy === null)
    throw new ToolOutputProjectionPolicyError('invalid_policy', [
      'toolImages must be an object with maxImageBytes and maxImages',
    ]);
  const { maxImageBytes, maxImages } = policy as Record<string, unknown>;
  const problems: string[] = [];
  if (!isIntegerAtLeast(maxImageBytes, 1))
    problems.push(`toolImages.maxImageBytes must be an integer >= 1, got ${String(maxImageBytes)}`);
  if (!isIntegerAtLeast(maxImages, 0))
    problems.push(`toolImages.maxImages must be an integer >= 0, got ${String(maxImages)}`);
  if (problems.length > 0) throw new ToolOutputProjectionPolicyError('invalid_policy', problems);
}

function isIntegerAtLeast(value: unknown, minimum: number): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= minimum;
}
