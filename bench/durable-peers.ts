/**
 * The two sides of `durable-peers.bench.ts`: a durable two-step run (the weather tool called once, then the
 * answer) as wuwe's `runner.complete(prompt, { store })` and as a LangGraph.js StateGraph (agent node, tool
 * node, agent node again) compiled with a checkpointer, on the same scripted model turns and the same tool.
 * LangGraph is a devDependency of the bench; nothing under lib/ imports it.
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool as langchainTool } from '@langchain/core/tools';
import type { ToolCall } from '@langchain/core/messages/tool';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { LlmAgentRunner, ScriptedModelClient, type RunStore } from '../lib';
import { answerText, prompt, weatherAsync, weatherCall, weatherInputSchema, weatherRunners } from './weather-tool';

/**
 * A chat model that answers with the weather call until the last message is a tool result, then with the
 * answer: the turns of wuwe's `ScriptedModelClient` in `weatherRunners()`.
 */
class ScriptedChatModel extends BaseChatModel {
  /** False: the model answers at once, without calling the tool (the run the commits of one call are taken from). */
  callsTool = true;

  _llmType(): string {
    return 'scripted';
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const last = messages[messages.length - 1];
    const message =
      !this.callsTool || ToolMessage.isInstance(last)
        ? new AIMessage(answerText)
        : new AIMessage({
            content: '',
            tool_calls: [
              {
                id: weatherCall.id,
                name: weatherCall.name,
                args: JSON.parse(weatherCall.arguments),
                type: 'tool_call',
              },
            ],
          });
    return { generations: [{ text: typeof message.content === 'string' ? message.content : '', message }] };
  }
}

/** The weather tool as LangChain writes it: the same async function, its JSON Schema checked on every call. */
const weatherTool = langchainTool(weatherAsync, {
  name: weatherCall.name,
  description: 'Get the weather.',
  schema: weatherInputSchema as never,
});

/** The tool calls of the last message, when it is the model's. */
function lastToolCalls(state: typeof MessagesAnnotation.State): ToolCall[] {
  const last = state.messages[state.messages.length - 1];
  return AIMessage.isInstance(last) ? (last.tool_calls ?? []) : [];
}

/** How LangGraph persists checkpoints: its default (`async`), or each before the next step (`sync`). */
export type LangGraphDurability = 'async' | 'sync';

/**
 * One durable LangGraph run per call, each on a new thread: START -> agent -> (tool call) -> tools -> agent -> END,
 * the graph of LangGraph's tool-calling guide, compiled with `checkpointer`. The tools node does what the
 * prebuilt `ToolNode` does for these calls (`tool.invoke(toolCall)`, a ToolMessage each); the prebuilt entry
 * point is not reachable under this project's `moduleResolution`.
 */
export function langGraphRun(
  checkpointer: BaseCheckpointSaver,
  durability: LangGraphDurability,
  callsTool = true,
): () => Promise<string> {
  const model = new ScriptedChatModel({});
  model.callsTool = callsTool;
  const graph = new StateGraph(MessagesAnnotation)
    .addNode('agent', async (state: typeof MessagesAnnotation.State) => ({
      messages: [await model.invoke(state.messages)],
    }))
    .addNode('tools', async (state: typeof MessagesAnnotation.State) => ({
      messages: await Promise.all(lastToolCalls(state).map((call) => weatherTool.invoke(call))),
    }))
    .addEdge(START, 'agent')
    .addConditionalEdges('agent', (state) => (lastToolCalls(state).length > 0 ? 'tools' : END), ['tools', END])
    .addEdge('tools', 'agent')
    .compile({ checkpointer });
  let thread = 0;
  return async () => {
    const state = await graph.invoke(
      { messages: [new HumanMessage(prompt)] },
      { configurable: { thread_id: `bench-${durability}-${thread++}` }, durability },
    );
    const last = state.messages[state.messages.length - 1];
    if (last.text !== answerText) throw new Error(`LangGraph answered ${JSON.stringify(last.text)}`);
    return last.text;
  };
}

/**
 * One durable wuwe run per call: `runner.complete(prompt, { store })` on the runner of the runner benches, or
 * with `callsTool` false on a model that answers at once.
 */
export function wuweRun(store: RunStore, callsTool = true): () => Promise<string> {
  const { bound, reflected } = weatherRunners();
  const runner = callsTool
    ? bound
    : new LlmAgentRunner(
        new ScriptedModelClient([{ text: answerText }], { whenExhausted: 'repeat', recordRequests: false }),
        reflected,
      );
  return async () => {
    const result = await runner.complete(prompt, { store });
    if (result.text !== answerText) throw new Error(`wuwe answered ${JSON.stringify(result.text)}`);
    return result.text;
  };
}
