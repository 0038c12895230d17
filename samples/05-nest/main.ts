/**
 * The NestJS sample: an application context whose controller runs an agent with a DI-injected tool.
 * Offline it runs on ScriptedModelClient; `npx ts-node --transpile-only samples/05-nest/main.ts`.
 */
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { MemoryRunStore, ScriptedModelClient } from '../../lib';
import { AgentController, AgentAnswer } from './agent.controller';
import { AppModule } from './app.module';

/** A scripted model that asks for Tokyo's weather, then answers with the tool's result. */
export function scriptedWeatherModel(): ScriptedModelClient {
  return new ScriptedModelClient([
    { toolCalls: [{ name: 'GetWeather', arguments: { city: 'Tokyo' } }] },
    (messages) => {
      const last = messages[messages.length - 1];
      return { text: `From the tool: ${last.role === 'tool' ? last.content : '?'}` };
    },
  ]);
}

/** Starts the application, asks the agent once, closes the application (which closes the store). */
export async function main(print: (line: string) => void = console.log): Promise<AgentAnswer> {
  const app = await NestFactory.createApplicationContext(
    AppModule.withModel(scriptedWeatherModel(), new MemoryRunStore()),
    { logger: false },
  );
  try {
    const answer = await app.get(AgentController).ask({ prompt: 'How warm is it in Tokyo?' });
    print(answer.text);
    return answer;
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
