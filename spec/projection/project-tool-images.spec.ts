import {
  checkToolImagePolicy,
  DEFAULT_TOOL_IMAGE_POLICY,
  projectToolImages,
  ToolOutputProjectionPolicyError,
} from '../../lib/projection';
import { toolFailure, toolText, ToolOutcome } from '../../lib';
import { PNG_1X1, pngOfSize } from '../support/tiny-images';

const png = (data = PNG_1X1) => ({ mediaType: 'image/png' as const, data });

describe('projectToolImages', () => {
  it('is undefined for an outcome without images', () => {
    expect(projectToolImages(toolText('x'), DEFAULT_TOOL_IMAGE_POLICY)).toBeUndefined();
    expect(projectToolImages(toolText('x', { images: [] }), DEFAULT_TOOL_IMAGE_POLICY)).toBeUndefined();
  });

  it('sends the images within the limits, in order, and notes each one over the byte limit', () => {
    const big = pngOfSize(2_000);
    const projected = projectToolImages(toolText('x', { images: [png(), png(big), png()] }), {
      maxImageBytes: 1_000,
      maxImages: 8,
    })!;
    expect(projected.parts).toEqual([
      { type: 'image', mediaType: 'image/png', data: PNG_1X1 },
      { type: 'text', text: '[image 1 (image/png, 2000 bytes) omitted: over the limit of 1000 bytes per image]' },
      { type: 'image', mediaType: 'image/png', data: PNG_1X1 },
    ]);
    expect(projected.report).toEqual({
      sent: 2,
      sentBytes: 140,
      omitted: [{ index: 1, bytes: 2_000, reason: 'too_large' }],
      maxImageBytes: 1_000,
      maxImages: 8,
    });
  });

  it('omits the images past maxImages with one note; maxImages 0 sends none', () => {
    const outcome = toolText('x', { images: [png(), png(), png(), png()] });
    const projected = projectToolImages(outcome, { maxImageBytes: 1_000, maxImages: 2 })!;
    expect(projected.parts.filter((part) => part.type === 'image')).toHaveLength(2);
    expect(projected.parts[2]).toEqual({ type: 'text', text: '[2 more images omitted: at most 2 per tool result]' });
    expect(projected.report.omitted.map((entry) => [entry.index, entry.reason])).toEqual([
      [2, 'too_many'],
      [3, 'too_many'],
    ]);
    const none = projectToolImages(outcome, { maxImageBytes: 1_000, maxImages: 0 })!;
    expect(none.parts).toEqual([{ type: 'text', text: '[4 more images omitted: at most 0 per tool result]' }]);
    expect(none.report.sent).toBe(0);
  });

  it('notes a malformed image (an outcome that skipped the tool checks) instead of sending it or throwing', () => {
    const hostile = {
      ok: true,
      text: 'x',
      images: [null, { mediaType: 'image/png', data: 'AAAA' }, png()],
    } as unknown as ToolOutcome;
    const projected = projectToolImages(hostile, DEFAULT_TOOL_IMAGE_POLICY)!;
    expect(projected.parts.map((part) => part.type)).toEqual(['text', 'text', 'image']);
    expect(projected.report.omitted.map((entry) => entry.reason)).toEqual(['invalid', 'invalid']);
  });

  it('sends no image of a failure and reports them', () => {
    const failure = { ...toolFailure({ code: 'tool_error', message: 'boom' }), images: [png()] };
    const projected = projectToolImages(failure, DEFAULT_TOOL_IMAGE_POLICY)!;
    expect(projected.parts).toEqual([]);
    expect(projected.report).toMatchObject({ sent: 0, omitted: [{ index: 0, bytes: 70, reason: 'failure' }] });
  });
});

describe('checkToolImagePolicy', () => {
  it('accepts the default and refuses limits a run cannot use', () => {
    expect(() => checkToolImagePolicy(DEFAULT_TOOL_IMAGE_POLICY)).not.toThrow();
    expect(DEFAULT_TOOL_IMAGE_POLICY).toEqual({ maxImageBytes: 5_242_880, maxImages: 8 });
    for (const bad of [
      null,
      { maxImageBytes: 0, maxImages: 1 },
      { maxImageBytes: 1.5, maxImages: 1 },
      { maxImageBytes: 10, maxImages: -1 },
      { maxImageBytes: 10, maxImages: NaN },
    ]) {
      expect(() => checkToolImagePolicy(bad)).toThrow(ToolOutputProjectionPolicyError);
    }
  });
});
