import * as wuwe from 'wuwe';
import * as sources from '../lib';

describe("the package entry ('wuwe')", () => {
  it('exposes the fixed public names', () => {
    const names = [
      'Tool',
      'Field',
      'Contract',
      'fieldTraits',
      'toolContract',
      'makeLlmTool',
      'parseToolArguments',
      'invokeReflectedTool',
      'descriptorFromLlmTool',
      'ReflectedToolProvider',
      'CompositeToolProvider',
      'composeToolProviders',
      'ToolRegistry',
      'DEFAULT_TOOL_OUTPUT_PROJECTION',
      'checkToolOutputProjectionPolicy',
      'tryProjectToolOutputForModel',
      'projectToolOutputForModel',
      'LlmAgentRunner',
      'AnthropicModelClient',
      'ScriptedModelClient',
      'MemoryRunStore',
      'SqliteRunStore',
      'PostgresRunStore',
      'FilesystemToolkit',
      'ProcessToolkit',
      'MemoryToolProvider',
      'KnowledgeToolProvider',
      'ExecutionToolProvider',
      'fallbackTextTokenEstimator',
    ];
    for (const name of names) expect(typeof (wuwe as Record<string, unknown>)[name]).not.toBe('undefined');
    expect(wuwe.DEFAULT_TOOL_OUTPUT_PROJECTION).toEqual({ maxBytes: 65536, maxTokens: 10000 });
    expect(wuwe.LlmAgentRunner).toBe(sources.LlmAgentRunner);
  });
});
