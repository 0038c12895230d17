import { ToolApprovalMode, ToolIdempotency, ToolSideEffect } from './tool-descriptor';

/** Side effects, weakest first. @internal */
export const SIDE_EFFECT_ORDER: readonly ToolSideEffect[] = ['none', 'read', 'write', 'destructive'];

/** Idempotency, safest to repeat first. @internal */
export const IDEMPOTENCY_ORDER: readonly ToolIdempotency[] = ['idempotent', 'idempotent_with_key', 'non_idempotent'];

/** Approval modes, least asking first. @internal */
export const APPROVAL_ORDER: readonly ToolApprovalMode[] = ['never', 'when_destructive', 'always'];

/** Whether `value` comes after `than` in `order` (a stricter contract). @internal */
export function isStricter<T>(order: readonly T[], value: T, than: T): boolean {
  return order.indexOf(value) > order.indexOf(than);
}
