import { loadOptionalDependency, MissingDependencyError } from '../errors/optional-dependency';

/** The types module of the MCP SDK (its request schemas), as `loadMcpSdk('types.js', ...)` returns it. */
export type McpSdkTypesModule = typeof import('@modelcontextprotocol/sdk/types.js', {
  with: { 'resolution-mode': 'import' },
});

/** The npm package of the MCP SDK, an optional peer of wuwe. */
export const MCP_SDK_PACKAGE = '@modelcontextprotocol/sdk';

/**
 * Loads one module of the MCP SDK (`server/index.js`, `types.js`, ...) on first use.
 *
 * @param subpath - the SDK subpath, e.g. `server/stdio.js`.
 * @param feature - the wuwe name that needs it, for the error message.
 * @throws MissingDependencyError naming `@modelcontextprotocol/sdk` when it is not installed.
 */
export function loadMcpSdk<T>(subpath: string, feature: string): T {
  try {
    return loadOptionalDependency<T>(`${MCP_SDK_PACKAGE}/${subpath}`, feature);
  } catch (error) {
    if (MissingDependencyError.isInstance(error))
      throw new MissingDependencyError(MCP_SDK_PACKAGE, feature, error.cause);
    throw error;
  }
}
