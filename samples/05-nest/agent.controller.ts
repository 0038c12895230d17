import { Body, Controller, Inject, Post } from '@nestjs/common';
import { LlmAgentRunner } from '../../lib';

/** What `POST /agent` answers. */
export interface AgentAnswer {
  readonly runId: string;
  readonly text: string;
  readonly toolCalls: readonly { readonly tool: string; readonly content: string }[];
}

/** Runs the agent for a prompt; the runner (and through it the tools) come from DI. */
@Controller('agent')
export class AgentController {
  constructor(@Inject(LlmAgentRunner) private readonly runner: LlmAgentRunner) {}

  @Post()
  async ask(@Body() body: { prompt: string }): Promise<AgentAnswer> {
    const result = await this.runner.complete(body.prompt);
    return {
      runId: result.runId,
      text: result.text,
      toolCalls: result.toolCalls.map((call) => ({ tool: call.toolName, content: call.content })),
    };
  }
}
