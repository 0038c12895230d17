import { ToolDescriptor } from '../contract/tool-descriptor';
import { messageOf } from '../errors/message-of';
import { standardFailure, toolFailure, ToolOutcome } from '../outcome/tool-outcome';
import { ToolInvocation } from '../providers/tool-invocation';
import { formatIssues } from '../tools/tool-argument-error';
import { compileOutputValidator } from '../validation/schema-validator';

/**
 * The outcome, checked against the output schema the server declares now (`current`, the descriptor of the
 * provider's current listing) when it is not the one of the invocation's descriptor (a runner built from an
 * earlier listing, before `list_changed` or a restart): the runner validates against its own descriptor, so an
 * output that breaks only the current declaration would otherwise reach the model unvalidated. A violation is an
 * `output_validation` failure.
 * @internal
 */
export function checkedAgainstCurrentDeclaration(
  invocation: ToolInvocation,
  current: ToolDescriptor | undefined,
  serverName: string,
  outcome: ToolOutcome,
): ToolOutcome {
  const schema = current?.outputSchema;
  if (current === invocation.descriptor) return outcome;
  if (!outcome.ok || schema === undefined || current!.outputValidation === 'disabled') return outcome;
  if (JSON.stringify(schema) === JSON.stringify(invocation.descriptor.outputSchema)) return outcome;
  const issues =
    outcome.data === undefined
      ? [{ pointer: '', message: 'the tool returned no structured data', keyword: 'type' }]
      : compileOutputValidator(schema)(outcome.data);
  if (issues.length === 0) return outcome;
  return toolFailure({
    code: 'output_validation',
    category: 'validation',
    retryable: false,
    message: `the output of '${invocation.toolName}' does not match the output schema the MCP server '${serverName}' declares now: ${formatIssues(issues)}`,
    details: { issues: issues.map(({ pointer, message, keyword }) => ({ pointer, message, keyword })) },
  });
}

/**
 * The outcome of a call whose server `serverName` went away during it: `unavailable` for a tool that is safe to
 * retry (read-only or idempotent), `outcome_unknown` otherwise (the effect may have happened).
 * @internal
 */
export function lostConnectionOutcome(invocation: ToolInvocation, serverName: string, error: unknown): ToolOutcome {
  const message = `the MCP server '${serverName}' went away during the call (${messageOf(error)}); it is started again on the next call`;
  const safe =
    invocation.descriptor.sideEffect === 'read' ||
    invocation.descriptor.sideEffect === 'none' ||
    invocation.descriptor.idempotency === 'idempotent';
  return safe
    ? standardFailure('unavailable', message)
    : standardFailure('outcome_unknown', `${message}; whether '${invocation.toolName}' took effect is unknown`);
}
