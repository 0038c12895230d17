import { ExecutionModuleError } from './execution-module-error';
import { messageOf } from '../../errors/message-of';

/** The timing options of the execution tools, every default filled. */
export interface ResolvedExecutionOptions {
  readonly maxWaitMs: number;
  readonly cancelGraceMs: number;
  readonly runTimeoutMs: number;
  readonly heartbeatIdleTimeoutMs: number;
}

/**
 * Fills the timing defaults and checks them; throws `ExecutionModuleError` (`invalid_execution_options`) listing every
 * problem.
 */
export function resolveExecutionOptions(options: Partial<ResolvedExecutionOptions>): ResolvedExecutionOptions {
  const resolved: ResolvedExecutionOptions = Object.freeze({
    maxWaitMs: options.maxWaitMs ?? 10_000,
    cancelGraceMs: options.cancelGraceMs ?? 1_000,
    runTimeoutMs: options.runTimeoutMs ?? 300_000,
    heartbeatIdleTimeoutMs: options.heartbeatIdleTimeoutMs ?? 30_000,
  });
  const problems: string[] = [];
  for (const [name, value] of Object.entries(resolved) as [keyof ResolvedExecutionOptions, number][]) {
    const zeroAllowed = name === 'maxWaitMs' || name === 'cancelGraceMs';
    if (!Number.isSafeInteger(value) || value < (zeroAllowed ? 0 : 1))
      problems.push(
        `${name} must be ${zeroAllowed ? 'a non-negative' : 'a positive'} integer of milliseconds, got ${messageOf(value)}`,
      );
  }
  if (problems.length > 0)
    throw new ExecutionModuleError('invalid_execution_options', `Invalid execution options: ${problems.join('; ')}`);
  return resolved;
}
