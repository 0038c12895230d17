import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/**
 * The root entry (`wuwe`) is curated: what a program writes in its first hour. Every other name lives at
 * exactly one subpath entry. The lists below are the root's names: adding or removing one is a deliberate
 * change of this file (and of the CHANGELOG), not a side effect of an `export` line.
 */
const root = join(__dirname, '../..');

/** The runtime names of the root, sorted. */
const ROOT_RUNTIME_NAMES = [
  'Contract',
  'DEFAULT_MAX_STEPS',
  'DEFAULT_TOOL_CONTRACT',
  'Field',
  'LlmAgentError',
  'LlmAgentRunner',
  'MemoryRunStore',
  'MissingDependencyError',
  'ModelApiError',
  'ModelClientOptionsError',
  'ReflectedToolProvider',
  'RunStoreError',
  'STANDARD_TOOL_ERROR_CODES',
  'ScriptedModelClient',
  'ScriptedModelError',
  'StructuredOutputError',
  'TOOL_ERROR_CATEGORIES',
  'Tool',
  'ToolArgumentError',
  'ToolContractError',
  'ToolDefinitionError',
  'ToolFailureError',
  'ToolProviderError',
  'ToolRegistry',
  'WuweError',
  'composeToolProviders',
  'defineTool',
  'isToolOutcome',
  'parseToolArguments',
  'standardFailure',
  'toolData',
  'toolDescriptorOf',
  'toolFailure',
  'toolImage',
  'toolText',
];

/** The type-only names of the root (interfaces and type aliases), sorted. */
const ROOT_TYPE_NAMES = [
  'AgentRunRecord',
  'AgentRunStatus',
  'ChatMessage',
  'DefineToolOptions',
  'DefinedTool',
  'DefinedToolContext',
  'DependencyContainer',
  'FieldOptions',
  'InferSchemaOutput',
  'InvokeToolCallOptions',
  'JsonObject',
  'JsonSchema',
  'JsonValue',
  'LlmAgentErrorCode',
  'LlmAgentEvent',
  'LlmAgentRunInput',
  'LlmAgentRunOptions',
  'LlmAgentRunResult',
  'LlmAgentRunStream',
  'LlmAgentStopReason',
  'LlmAgentStreamEvent',
  'LlmTool',
  'ModelApiErrorCode',
  'ModelClient',
  'ModelRequest',
  'ModelResponse',
  'ModelToolCall',
  'ReflectedToolContext',
  'ReflectedToolProviderOptions',
  'RunStore',
  'RunStoreErrorCode',
  'ScriptedModelClientOptions',
  'ScriptedReply',
  'ScriptedTurn',
  'StandardToolErrorCode',
  'StructuredOutputErrorCode',
  'ToolApprovalDecision',
  'ToolApprovalMode',
  'ToolCallPermission',
  'ToolCallRequest',
  'ToolCallResult',
  'ToolCallResultOf',
  'ToolContractErrorCode',
  'ToolContractOptions',
  'ToolDefinitionErrorCode',
  'ToolDescriptor',
  'ToolErrorCategory',
  'ToolFailureOutcome',
  'ToolImage',
  'ToolInvocation',
  'ToolOptions',
  'ToolOutcome',
  'ToolOutcomeError',
  'ToolProvider',
  'ToolProviderErrorCode',
  'ToolRegistryOptions',
  'ToolRetryPolicy',
  'ToolSideEffect',
  'ToolSuccessOutcome',
  'ToolsOf',
  'TypedToolCallResult',
];

/** Each package entry (`wuwe`, `wuwe/runner`, ...) with its source module, read from package.json's `exports`. */
function packageEntries(): { specifier: string; source: string }[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
  return Object.entries(manifest.exports)
    .filter((entry): entry is [string, { types: string }] => typeof entry[1] === 'object' && entry[1] !== null)
    .map(([subpath, target]) => ({
      specifier: subpath === '.' ? 'wuwe' : `wuwe/${subpath.slice(2)}`,
      source: join(root, target.types.replace('./dist/', 'lib/').replace(/\.d\.ts$/, '.ts')),
    }));
}

/** The names each source module exports (values and types), as the TypeScript compiler sees them. */
function exportedNames(sources: readonly string[]): Map<string, { values: string[]; types: string[] }> {
  const program = ts.createProgram([...sources], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    strict: true,
    experimentalDecorators: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const result = new Map<string, { values: string[]; types: string[] }>();
  for (const source of sources) {
    const file = program.getSourceFile(source);
    const moduleSymbol = file === undefined ? undefined : checker.getSymbolAtLocation(file);
    if (moduleSymbol === undefined) throw new Error(`${relative(root, source)} is not a module`);
    const values: string[] = [];
    const types: string[] = [];
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      (target.flags & ts.SymbolFlags.Value ? values : types).push(exported.name);
    }
    result.set(source, { values: values.sort(), types: types.sort() });
  }
  return result;
}

const entries = packageEntries();
const names = exportedNames(entries.map((entry) => entry.source));

describe("the root entry ('wuwe')", () => {
  const rootSource = join(root, 'lib', 'index.ts');

  it('exports exactly the listed runtime names', () => {
    const runtime = Object.keys(jest.requireActual<object>(rootSource)).sort();
    expect(runtime).toEqual(ROOT_RUNTIME_NAMES);
    expect(names.get(rootSource)?.values).toEqual(ROOT_RUNTIME_NAMES);
  });

  it('exports exactly the listed types', () => {
    expect(names.get(rootSource)?.types).toEqual(ROOT_TYPE_NAMES);
  });

  it('stays small, and holds no internal', () => {
    expect(ROOT_RUNTIME_NAMES.length + ROOT_TYPE_NAMES.length).toBeLessThanOrEqual(100);
    const internals = ['canonicalJson', 'StepContext', 'AdmittedCall', 'MaybePromise', 'RunInProgress', 'SHELL_PATH'];
    const all = [...ROOT_RUNTIME_NAMES, ...ROOT_TYPE_NAMES];
    expect(internals.filter((name) => all.includes(name))).toEqual([]);
  });
});

describe('the package entries', () => {
  it('are the subpaths of package.json, each with a source module that exports something', () => {
    expect(entries.map((entry) => entry.specifier)).toEqual(
      expect.arrayContaining(['wuwe', 'wuwe/runner', 'wuwe/durable', 'wuwe/tools', 'wuwe/sqlite', 'wuwe/testing']),
    );
    for (const entry of entries) {
      const exported = names.get(entry.source);
      expect({
        entry: entry.specifier,
        empty: (exported?.values.length ?? 0) + (exported?.types.length ?? 0) === 0,
      }).toEqual({
        entry: entry.specifier,
        empty: false,
      });
    }
  });

  it('export no name twice: each type and each runtime name lives at exactly one entry', () => {
    const owners = new Map<string, string[]>();
    for (const entry of entries) {
      const exported = names.get(entry.source);
      for (const name of [...(exported?.values ?? []), ...(exported?.types ?? [])])
        owners.set(name, [...(owners.get(name) ?? []), entry.specifier]);
    }
    const shared = [...owners].filter(([, at]) => at.length > 1).map(([name, at]) => `${name}: ${at.join(', ')}`);
    expect(shared).toEqual([]);
  });

  it('export no runtime name twice at run time either (the modules as loaded)', () => {
    const owners = new Map<string, string[]>();
    for (const entry of entries) {
      for (const name of Object.keys(jest.requireActual<object>(entry.source)))
        owners.set(name, [...(owners.get(name) ?? []), entry.specifier]);
    }
    const shared = [...owners].filter(([, at]) => at.length > 1).map(([name, at]) => `${name}: ${at.join(', ')}`);
    expect(shared).toEqual([]);
  });

  it('re-export nothing wholesale: no `export *` in lib/', () => {
    const program = ts.createProgram(
      entries.map((entry) => entry.source),
      { noEmit: true, skipLibCheck: true },
    );
    const wholesale = program
      .getSourceFiles()
      .filter((file) => file.fileName.startsWith(join(root, 'lib')))
      .flatMap((file) =>
        file.statements
          .filter((statement) => ts.isExportDeclaration(statement) && statement.exportClause === undefined)
          .map(() => relative(root, file.fileName)),
      );
    expect(wholesale).toEqual([]);
  });
});
