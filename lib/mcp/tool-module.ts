import { ReflectedToolProvider } from '../providers/reflected-tool-provider';
import { composeToolProviders } from '../providers/composite-tool-provider';
import { ToolProvider } from '../providers/tool-provider';
import { ClassType } from '../reflect/field-options';
import { getToolMetadataStorage } from '../reflect/metadata-storage';
import { McpSetupError } from './mcp-setup-error';

/**
 * The tools a module exports, as one provider: every exported `ToolProvider` (an object with
 * `listTools`) and every exported `@Tool` class (served by a `ReflectedToolProvider`).
 * A default export counts like a named one.
 *
 * @throws McpSetupError `no_tools_in_module` when the module exports neither.
 */
export function toolProviderOfModule(moduleExports: unknown, modulePath = 'the module'): ToolProvider {
  const values = exportedValues(moduleExports);
  const providers = values.filter(isToolProvider);
  const storage = getToolMetadataStorage();
  const classes = values.filter(
    (value): value is ClassType<object> => typeof value === 'function' && storage.toolOptions(value) !== undefined,
  );
  if (classes.length > 0) providers.push(new ReflectedToolProvider(classes));
  if (providers.length === 0)
    throw new McpSetupError(
      'no_tools_in_module',
      `${modulePath} exports no @Tool class and no ToolProvider (an object with listTools()); export the tools to serve`,
    );
  return providers.length === 1 ? providers[0] : composeToolProviders(...providers);
}

function exportedValues(moduleExports: unknown): unknown[] {
  if (typeof moduleExports !== 'object' || moduleExports === null)
    return typeof moduleExports === 'function' ? [moduleExports] : [];
  const seen = new Set<unknown>();
  for (const value of Object.values(moduleExports)) {
    if (typeof value === 'object' && value !== null && 'default' in value && Object.keys(value).length === 1) continue;
    seen.add(value);
  }
  return [...seen];
}

function isToolProvider(value: unknown): value is ToolProvider {
  return (
    typeof value === 'object' && value !== null && typeof (value as { listTools?: unknown }).listTools === 'function'
  );
}
