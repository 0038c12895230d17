/// <reference lib="dom" />
/**
 * The page's script: a `Chat` (the `ai` package's, framework-neutral) on `/api/chat`, rendered as plain DOM. A tool
 * part waiting for approval shows Approve / Deny buttons; answering sends the response back at once
 * (`lastAssistantMessageIsCompleteWithApprovalResponses`). Bundled with esbuild (see `bundle.ts`).
 */
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, UIMessage } from 'ai';
import { PageChat } from './page-chat';

const messagesView = document.getElementById('messages')!;
const statusView = document.getElementById('status')!;

const chat: PageChat = new PageChat(
  {
    transport: new DefaultChatTransport({ api: '/api/chat' }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  },
  () => render(),
);

function render(): void {
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
