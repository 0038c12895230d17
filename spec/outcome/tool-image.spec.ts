import { base64ByteLength, toolImagesProblem } from '../../lib/outcome/tool-image';
import { toolImage } from '../../lib';
import { toToolOutcome } from '../../lib/tools';
import { GIF_1X1, PNG_1X1, pngOfSize } from '../support/tiny-images';

describe('tool outcome images', () => {
  it('accepts PNG, GIF, JPEG and WebP whose bytes match their media type', () => {
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]).toString('base64');
    const webp = Buffer.from('RIFF\0\0\0\0WEBPVP8 ').toString('base64');
    expect(
      toolImagesProblem([
        { mediaType: 'image/png', data: PNG_1X1 },
        { mediaType: 'image/gif', data: GIF_1X1 },
        { mediaType: 'image/jpeg', data: jpeg },
        { mediaType: 'image/webp', data: webp },
      ]),
    ).toBeUndefined();
  });

  it.each<[string, unknown, RegExp]>([
    ['not a list', { mediaType: 'image/png', data: PNG_1X1 }, /must be an array/],
    [
      'bad base64',
      [{ mediaType: 'image/png', data: 'iVBOR w0K!' }],
      /images\[0\]: data must be non-empty, padded base64/,
    ],
    ['unpadded base64', [{ mediaType: 'image/png', data: PNG_1X1.replace(/=+$/, '') }], /padded base64/],
    ['empty data', [{ mediaType: 'image/png', data: '' }], /padded base64/],
    [
      'a media type off the list',
      [{ mediaType: 'image/svg+xml', data: PNG_1X1 }],
      /media type "image\/svg\+xml" is not one of image\/png, image\/jpeg/,
    ],
    [
      'bytes of another format',
      [{ mediaType: 'image/jpeg', data: PNG_1X1 }],
      /does not start with the signature of image\/jpeg/,
    ],
    ['a url instead of data', [{ mediaType: 'image/png', url: 'file:///etc/passwd' }], /unexpected key "url"/],
    [
      'a class instance',
      [
        new (class Img {
          mediaType = 'image/png';
          data = PNG_1X1;
        })(),
      ],
      /plain object/,
    ],
    [
      'a __proto__ key',
      JSON.parse(`[{"mediaType":"image/png","data":"${PNG_1X1}","__proto__":{"x":1}}]`),
      /unexpected key "__proto__"/,
    ],
  ])('refuses %s', (_name, images, message) => {
    expect(toolImagesProblem(images)).toMatch(message);
  });

  it('a tool returning malformed images gets a tool_error failure naming the problem; its images are never sent', () => {
    const outcome = toToolOutcome({ ok: true, text: 'shot', images: [{ mediaType: 'image/png', data: 'n*pe' }] });
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).toMatchObject({
      code: 'tool_error',
      message: expect.stringContaining('images[0]: data must be non-empty, padded base64'),
    });
    expect(outcome.images).toBeUndefined();
  });

  it('a tool returning well-formed images keeps a copy of them the tool cannot change afterwards', () => {
    const images = [{ mediaType: 'image/png' as const, data: PNG_1X1 }];
    const outcome = toToolOutcome({ ok: true, text: 'shot', images });
    images[0].data = 'changed';
    expect(outcome.images).toEqual([{ mediaType: 'image/png', data: PNG_1X1 }]);
  });

  it('toolImage encodes bytes; base64ByteLength gives the decoded size', () => {
    const bytes = Buffer.from(PNG_1X1, 'base64');
    expect(toolImage(new Uint8Array(bytes), 'image/png')).toEqual({ mediaType: 'image/png', data: PNG_1X1 });
    expect(base64ByteLength(PNG_1X1)).toBe(bytes.length);
    for (const size of [8, 9, 10, 1000]) expect(base64ByteLength(pngOfSize(size))).toBe(size);
  });
});
