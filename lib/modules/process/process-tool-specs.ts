import { JsonSchema } from '../../contract/json-schema';
import { callerSettableNames } from './environment-rules';
import { ResolvedProcessPolicy } from './process-policy';

const sharedProperties = (policy: ResolvedProcessPolicy): Record<string, JsonSchema> => {
  const properties: Record<string, JsonSchema> = {
    cwd: { type: 'string', maxLength: 4096, description: "Working directory relative to the root; '.' unless given." },
    stdin: { type: 'string', description: 'Text written to standard input; empty unless given.' },
  };
  const settable = callerSettableNames(policy.envAllowList);
  if (settable.length > 0)
    properties.env = {
      type: 'object',
      properties: Object.fromEntries(settable.map((name) => [name, { type: 'string' }])),
      additionalProperties: false,
      description: 'Environment variables to set (only the allowed names).',
    };
  return properties;
};

/** Argument names of `process_run`. */
export const RUN_ARGUMENT_NAMES = ['executable', 'args', 'cwd', 'env', 'stdin'] as const;
/** Argument names of `process_shell`. */
export const SHELL_ARGUMENT_NAMES = ['command', 'cwd', 'env', 'stdin'] as const;

/** Model-visible description and input schema of `process_run`; the executable is an enum of the allow list. */
export function runToolSpec(policy: ResolvedProcessPolicy): { description: string; inputSchema: JsonSchema } {
  const names = Object.keys(policy.executables);
  return {
    description: [
      `Run an allowed program with an argument vector (no shell). Allowed: ${names.join(', ')}. Returns exit code, signal and capped stdout/stderr.`,
      ...Object.values(policy.argumentRules).flatMap((rule) => (rule.summary === undefined ? [] : [rule.summary])),
    ].join(' '),
    inputSchema: {
      type: 'object',
      properties: {
        executable: { type: 'string', enum: names, description: 'Name of an allowed program.' },
        args: {
          type: 'array',
          items: { type: 'string' },
          description: 'Arguments, one string each; never interpreted by a shell.',
        },
        ...sharedProperties(policy),
      },
      required: ['executable'],
      additionalProperties: false,
    },
  };
}

/** Model-visible description and input schema of `process_shell`. */
export function shellToolSpec(policy: ResolvedProcessPolicy): { description: string; inputSchema: JsonSchema } {
  return {
    description: 'Run a command line with /bin/sh -c. Returns exit code, signal and capped stdout/stderr.',
    inputSchema: {
      type: 'object',
      properties: {
        command: { type: 'string', minLength: 1, description: 'Shell command line.' },
        ...sharedProperties(policy),
      },
      required: ['command'],
      additionalProperties: false,
    },
  };
}
