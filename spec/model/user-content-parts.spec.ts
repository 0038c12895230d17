import { ModelApiError } from '../../lib';
import { UserContentPart } from '../../lib/model';
import { toAiSdkPrompt } from '../../lib/model/ai-sdk/map-prompt';
import { toChatUserContent, toResponsesUserContent } from '../../lib/model/openai/map-user-content';

const PARTS: readonly UserContentPart[] = [
  { type: 'text', text: 'What is on this?' },
  { type: 'image', mediaType: 'image/png', data: 'iVBORw0KGgo=' },
  { type: 'image', url: 'https://example.com/cat.jpg' },
  { type: 'document', mediaType: 'application/pdf', data: 'JVBERi0=', title: 'report.pdf' },
];

describe('user messages with images and documents, per client', () => {
  it('Chat Completions: text, image_url (URL or data: URL) and inline file parts; a plain prompt stays a string', () => {
    expect(toChatUserContent('hello')).toBe('hello');
    expect(toChatUserContent(PARTS)).toEqual([
      { type: 'text', text: 'What is on this?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
      { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'report.pdf' } },
    ]);
  });

  it('Chat Completions refuses a document by URL with invalid_request instead of dropping it', () => {
    const refuse = (): unknown => toChatUserContent([{ type: 'document', url: 'https://example.com/a.pdf' }]);
    expect(refuse).toThrow(ModelApiError);
    expect(refuse).toThrow(/document given by URL/);
  });

  it('Responses API: input_text, input_image and input_file parts, documents by URL as file_url', () => {
    expect(toResponsesUserContent([...PARTS, { type: 'document', url: 'https://example.com/a.pdf' }])).toEqual([
      { type: 'input_text', text: 'What is on this?' },
      { type: 'input_image', detail: 'auto', image_url: 'data:image/png;base64,iVBORw0KGgo=' },
      { type: 'input_image', detail: 'auto', image_url: 'https://example.com/cat.jpg' },
      { type: 'input_file', file_data: 'data:application/pdf;base64,JVBERi0=', filename: 'report.pdf' },
      { type: 'input_file', file_url: 'https://example.com/a.pdf' },
    ]);
  });

  it('AI SDK: text and file parts with their media types, URLs as URL objects', () => {
    const [message] = toAiSdkPrompt(undefined, [{ role: 'user', content: PARTS }]);
    expect(message).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'What is on this?' },
        { type: 'file', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
        { type: 'file', data: new URL('https://example.com/cat.jpg'), mediaType: 'image/*' },
        { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'report.pdf' },
      ],
    });
  });
});
