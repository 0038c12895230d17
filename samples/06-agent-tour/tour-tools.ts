/**
 * The tools of the agent tour: a reflected weather tool, a contract with retries, a tool that
 * ignores its deadline, a tool with a huge output, a destructive tool and a long job with heartbeats.
 */
import 'reflect-metadata';
import { Contract, Field, Tool, toolFailure, ToolDescriptor } from '../../lib';
import { descriptorFromLlmTool } from '../../lib/contract';
import type { ToolInvocation, ToolProvider } from '../../lib';
import type { ToolProviderCapabilities } from '../../lib/tools';

export enum TemperatureUnit {
  Celsius = 'celsius',
  Fahrenheit = 'fahrenheit',
}

@Tool({ name: 'get_weather', description: 'Get the current weather for a city.' })
export class GetWeather {
  @Field({ description: 'City name.' })
  city!: string;

  @Field({ enum: TemperatureUnit, default: TemperatureUnit.Celsius, description: 'Preferred temperature unit.' })
  unit!: TemperatureUnit;

  invoke(): string {
    return this.unit === TemperatureUnit.Celsius
      ? `${this.city} is 22 degrees Celsius.`
      : `${this.city} is 72 degrees Fahrenheit.`;
  }
}

/** Shared state of the tour's settings service: the first write hits a busy backend. */
export const settingsBackend = { attempts: 0, values: new Map<string, string>() };

@Tool({
  name: 'update_setting',
  description: 'Set a configuration value. Idempotent: setting the same value twice is harmless.',
})
@Contract({
  sideEffect: 'write',
  idempotency: 'idempotent',
  retry: { maxAttempts: 3, initialDelayMs: 50 },
  timeoutMs: 2_000,
})
export class UpdateSetting {
  @Field({ description: 'Setting name.' }) key!: string;
  @Field({ description: 'New value.' }) value!: string;

  invoke(): unknown {
    settingsBackend.attempts++;
    if (settingsBackend.attempts === 1)
      return toolFailure({ code: 'unavailable', message: 'settings backend is busy, try again' });
    settingsBackend.values.set(this.key, this.value);
    return { key: this.key, value: this.value, version: settingsBackend.attempts };
  }
}

@Tool({ name: 'build_report', description: 'Build the quarterly report (slow).' })
@Contract({ sideEffect: 'read', timeoutMs: 300 })
export class BuildReport {
  @Field({ description: 'Quarter, e.g. 2026-Q3.' }) quarter!: string;

  /** Ignores every cancellation request: the runner must return at the deadline anyway. */
  async invoke(): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 1_500).unref());
    return `report for ${this.quarter}`;
  }
}

@Tool({ name: 'read_log', description: 'Read the service log.' })
@Contract({ sideEffect: 'read', idempotency: 'idempotent' })
export class ReadLog {
  @Field({ description: 'Service name.' }) service!: string;

  invoke(): string {
    const lines: string[] = [];
    for (let i = 0; i < 5_000; i++)
      lines.push(
        `${new Date(Date.UTC(2026, 10, 30, 0, 0, i)).toISOString()} ${this.service} request ${i} ok in ${i % 97} ms`,
      );
    return lines.join('\n');
  }
}

@Tool({ name: 'delete_database', description: 'Delete a database and all its data.' })
@Contract({ sideEffect: 'destructive', approval: 'always' })
export class DeleteDatabase {
  @Field({ description: 'Database name.' }) name!: string;

  invoke(): string {
    return `database ${this.name} deleted`;
  }
}

/** A provider with the heartbeat capability: a long job that reports progress. */
export class ReindexProvider implements ToolProvider {
  private readonly descriptor: ToolDescriptor = descriptorFromLlmTool(
    {
      name: 'reindex_search',
      description: 'Rebuild the search index; reports progress.',
      inputSchema: {
        type: 'object',
        properties: { shards: { type: 'integer', minimum: 1, maximum: 8 } },
        required: ['shards'],
        additionalProperties: false,
      },
    },
    { sideEffect: 'write', idempotency: 'idempotent', heartbeat: { idleTimeoutMs: 500 }, timeoutMs: 5_000 },
  );

  listTools(): readonly ToolDescriptor[] {
    return [this.descriptor];
  }

  capabilities(): ToolProviderCapabilities {
    return { invocationContext: false, idempotencyKey: false, heartbeat: true, compensation: false };
  }

  async invokeTool(invocation: ToolInvocation): Promise<unknown> {
    const shards = invocation.arguments.shards as number;
    for (let shard = 1; shard <= shards; shard++) {
      await new Promise((resolve) => setTimeout(resolve, 40));
      if (invocation.signal.aborted) return toolFailure({ code: 'cancelled', message: 'reindex cancelled' });
      invocation.reportHeartbeat({ fraction: shard / shards, message: `shard ${shard}/${shards} done` });
    }
    return { shards, status: 'rebuilt' };
  }
}
