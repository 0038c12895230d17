/// <reference lib="dom" />
/**
 * The page's script: a `Chat` (the `ai` package's, framework-neutral) on `/api/chat`, rendered as plain DOM. A tool
 * part waiting for approval shows Approve / Deny buttons; answering sends the response back at once
 * (`lastAssistantMessageIsCompleteWithApprovalResponses`). The chat's id, messages and status are kept in
 * `sessionStorage`: a page reloaded while a run was in progress restores them and follows the run again
 * (`resumeStream()`, the server's `GET /api/chat/<chatId>/stream`). Bundled with esbuild (see `bundle.ts`).
 */
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, UIMessage } from 'ai';
import { PageChat } from './page-chat';

const messagesView = document.getElementById('messages')!;
const statusView = document.getElementById('status')!;

/** What the page keeps across a reload. */
interface KeptChat {
  readonly id: string;
  readonly messages: UIMessage[];
  readonly status: string;
}

const KEPT_CHAT = 'wuwe-chat';
const kept = JSON.parse(sessionStorage.getItem(KEPT_CHAT) ?? 'null') as KeptChat | null;

const chat: PageChat = new PageChat(
  {
    ...(kept === null ? {} : { id: kept.id, messages: kept.messages }),
    transport: new DefaultChatTransport({ api: '/api/chat' }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  },
  () => render(),
);

function render(): void {
  const keep: KeptChat = { id: chat.id, messages: [...chat.currentMessages], status: chat.status };
  sessionStorage.setItem(KEPT_CHAT, JSON.stringify(keep));
  statusView.textContent = chat.status;
  messagesView.replaceChildren(...chat.currentMessages.map(messageView));
}

function messageView(message: UIMessage): HTMLElement {
  const view = document.createElement('div');
  view.className = `message ${message.role}`;
  for (const part of message.parts) {
    if (part.type === 'text') view.append(line('text', part.text));
    else if (part.type.startsWith('tool-') && 'toolCallId' in part) {
      const tool = line(`tool ${part.state}`, `${part.type.slice(5)} ${JSON.stringify(part.input)}: ${part.state}`);
      tool.dataset.callId = part.toolCallId;
      if (part.state === 'output-available') tool.append(` -> ${String(part.output)}`);
      if (part.state === 'approval-requested') {
        const id = part.approval.id;
        tool.append(button('Approve', () => chat.addToolApprovalResponse({ id, approved: true })));
        tool.append(
          button('Deny', () => chat.addToolApprovalResponse({ id, approved: false, reason: 'denied on the page' })),
        );
      }
      view.append(tool);
    }
  }
  return view;
}

function line(className: string, text: string): HTMLElement {
  const element = document.createElement('p');
  element.className = className;
  element.textContent = text;
  return element;
}

function button(label: string, onClick: () => unknown): HTMLButtonElement {
  const element = document.createElement('button');
  element.textContent = label;
  element.className = label.toLowerCase();
  element.addEventListener('click', () => void onClick());
  return element;
}

document.getElementById('form')!.addEventListener('submit', (event) => {
  event.preventDefault();
  const prompt = document.getElementById('prompt') as HTMLInputElement;
  void chat.sendMessage({ text: prompt.value });
});
render();
// A run was in progress when the page went away: follow it again (the server replays the assistant message).
if (kept !== null && (kept.status === 'submitted' || kept.status === 'streaming')) void chat.resumeStream();
