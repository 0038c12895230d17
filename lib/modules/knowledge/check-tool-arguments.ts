import { ToolDescriptor } from '../../contract/tool-descriptor';
import { JsonObject } from '../../outcome/json-value';
import { toolFailure, ToolOutcome } from '../../outcome/tool-outcome';
import { compileInputValidator } from '../../validation/schema-validator';
import { decodeToolArguments } from '../../validation/decode-arguments';

/** Arguments that passed the tool's input schema (defaults applied), or the failure to answer with. */
export type CheckedToolArguments =
  { readonly ok: true; readonly value: JsonObject } | { readonly ok: false; readonly failure: ToolOutcome };

/**
 * Checks arguments against a tool's input schema inside the provider, so a provider called
 * directly (without the runner's validation) still refuses bad input. The failure is an
 * `invalid_arguments` outcome listing each issue by JSON Pointer. The caller's object is not changed.
 */
export function checkToolArguments(descriptor: ToolDescriptor, args: unknown): CheckedToolArguments {
  const decoded = decodeToolArguments(args);
  const issues = decoded.ok ? compileInputValidator(descriptor.inputSchema)(decoded.value) : decoded.issues;
  if (decoded.ok && issues.length === 0) return { ok: true, value: decoded.value };
  const listed = issues
    .map((issue) => `${issue.pointer === '' ? '(root)' : issue.pointer} ${issue.message}`)
    .join('; ');
  return {
    ok: false,
    failure: toolFailure({
      code: 'invalid_arguments',
      message: `Invalid arguments for ${descriptor.name}: ${listed}`,
      details: { issues: issues.map((issue) => ({ pointer: issue.pointer, message: issue.message })) },
    }),
  };
}
