import { ToolRetryPolicy } from './tool-descriptor';

/**
 * Delay in milliseconds before the next attempt after failed attempt `failedAttempt` (1-based):
 * `base = min(maxDelayMs, initialDelayMs * backoffCoefficient^(failedAttempt - 1))`, then
 * `min(maxDelayMs, base * (1 - jitter + 2 * jitter * random()))`. Pure; `random` returns [0, 1).
 */
export function computeRetryDelayMs(
  policy: ToolRetryPolicy,
  failedAttempt: number,
  random: () => number = Math.random,
): number {
  const exponential = policy.initialDelayMs * Math.pow(policy.backoffCoefficient, Math.max(0, failedAttempt - 1));
  const base = Math.min(policy.maxDelayMs, exponential);
  const factor = 1 - policy.jitter + 2 * policy.jitter * random();
  return Math.max(0, Math.min(policy.maxDelayMs, base * factor));
}
