import type { ApprovalRecord } from '../agent-run-record';

/**
 * Why a decided approval lacks its lineage, or `undefined`: an `approved` or `denied` approval must name who
 * decided (`decidedBy`), when (`decidedAt`), and the SHA-256 of the arguments decided on, equal to the one
 * requested. A state flipped by hand without a decision never counts as one.
 */
export function approvalLineageProblem(
  approval: Pick<ApprovalRecord, 'state' | 'decidedBy' | 'decidedAt' | 'decidedArgumentsSha256' | 'argumentsSha256'>,
): string | undefined {
  if (approval.state !== 'approved' && approval.state !== 'denied') return undefined;
  if (typeof approval.decidedBy !== 'string' || approval.decidedBy === '')
    return `it is ${approval.state} without a decider`;
  if (typeof approval.decidedAt !== 'string' || Number.isNaN(Date.parse(approval.decidedAt)))
    return `it is ${approval.state} without a decision time`;
  if (approval.decidedArgumentsSha256 !== approval.argumentsSha256)
    return `it is ${approval.state} without a decision on the requested arguments`;
  return undefined;
}
