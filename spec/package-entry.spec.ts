import * as wuwe from 'wuwe';
import * as sources from '../lib';
import * as contract from '../lib/contract';
import * as sqlite from '../lib/durable/sqlite';
import * as postgres from '../lib/durable/postgres';
import * as anthropic from '../lib/model/anthropic';
import * as execution from '../lib/modules/execution';
import * as filesystem from '../lib/modules/filesystem';
import * as knowledge from '../lib/modules/knowledge';
import * as memory from '../lib/modules/memory';
import * as processModule from '../lib/modules/process';
import * as projection from '../lib/projection';
import * as tools from '../lib/tools';

describe("the package entry ('wuwe')", () => {
  it('exposes the first-hour names, and leaves the details to their subpath entries', () => {
    const rootNames = [
      'Tool',
      'Field',
      'Contract',
      'parseToolArguments',
      'ReflectedToolProvider',
      'composeToolProviders',
      'ToolRegistry',
      'LlmAgentRunner',
      'ScriptedModelClient',
      'MemoryRunStore',
    ];
    for (const name of rootNames) expect(typeof (wuwe as Record<string, unknown>)[name]).not.toBe('undefined');
    const elsewhere: Record<string, object> = {
      fieldTraits: tools,
      toolContract: tools,
      makeLlmTool: tools,
      invokeReflectedTool: tools,
      CompositeToolProvider: tools,
      descriptorFromLlmTool: contract,
      DEFAULT_TOOL_OUTPUT_PROJECTION: projection,
      checkToolOutputProjectionPolicy: projection,
      tryProjectToolOutputForModel: projection,
      projectToolOutputForModel: projection,
      fallbackTextTokenEstimator: projection,
      AnthropicModelClient: anthropic,
      SqliteRunStore: sqlite,
      PostgresRunStore: postgres,
      FilesystemToolkit: filesystem,
      ProcessToolkit: processModule,
      MemoryToolProvider: memory,
      KnowledgeToolProvider: knowledge,
      ExecutionToolProvider: execution,
    };
    for (const [name, entry] of Object.entries(elsewhere)) {
      expect({ name, atRoot: name in wuwe }).toEqual({ name, atRoot: false });
      expect({ name, atEntry: name in entry }).toEqual({ name, atEntry: true });
    }
    expect(projection.DEFAULT_TOOL_OUTPUT_PROJECTION).toEqual({ maxBytes: 65536, maxTokens: 10000 });
    expect(wuwe.LlmAgentRunner).toBe(sources.LlmAgentRunner);
  });
});
