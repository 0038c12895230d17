/**
 * A chat page on a wuwe agent, over the AI SDK UI message stream: the agent looks an order up, asks to refund it
 * (a destructive tool: the run suspends for approval), the page approves, the run resumes and the refund runs once.
 *
 * `main()` starts the server and drives it with the `ai` package's `Chat` in Node, as the page does; run the file
 * with `--serve` to keep the server up and open the page in a browser.
 *
 * Run: `npx ts-node --transpile-only samples/08-ui-stream/main.ts [--serve]` (docs/ui-stream.md).
 */
import { randomBytes } from 'node:crypto';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import type { WuweUIMessage } from '../../lib/ui-stream';
import { executions } from './agent';
import { bundlePage } from './bundle';
import { PageChat } from './page-chat';
import { startChatServer } from './server';

/** What the sample saw. */
export interface UIStreamSampleOutput {
  readonly answer: string;
  readonly refunds: number;
  readonly messages: readonly WuweUIMessage[];
}

/** Runs the sample: one chat, one approval, the answer. */
export async function main(print: (line: string) => void = console.log): Promise<UIStreamSampleOutput> {
  const server = await startChatServer({ pageScript: await bundlePage(), secret: randomBytes(32).toString('hex') });
  try {
    const refundsBefore = executions.refund;
    const chat = new PageChat<WuweUIMessage>({
      transport: new DefaultChatTransport({ api: `${server.url}/api/chat` }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
    await chat.sendMessage({ text: 'Refund order A-1' });
    const waiting = chat.currentMessages
      .at(-1)
      ?.parts.find((part) => part.type === 'tool-RefundOrder' && part.state === 'approval-requested');
    if (waiting === undefined || !('approval' in waiting) || waiting.approval === undefined)
      throw new Error('the refund did not ask for approval');
    print(`approval requested: ${waiting.type} ${JSON.stringify(waiting.input)}`);
    await chat.addToolApprovalResponse({ id: waiting.approval.id, approved: true });
    await until(() => chat.status === 'ready' && executions.refund > refundsBefore);
    const last = chat.currentMessages.at(-1)!;
    const answer = last.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
    print(`answer: ${answer}`);
    print(`refunds made: ${executions.refund - refundsBefore}`);
    return { answer, refunds: executions.refund - refundsBefore, messages: chat.currentMessages };
  } finally {
    await server.close();
  }
}

/** Waits (polling, up to 10 s) until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function serve(): Promise<void> {
  const server = await startChatServer({ pageScript: await bundlePage(), secret: randomBytes(32).toString('hex') });
  console.log(`open ${server.url}`);
}

if (require.main === module) {
  (process.argv.includes('--serve') ? serve() : main().then(() => undefined)).catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
