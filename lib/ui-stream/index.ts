/**
 * `wuwe/ui-stream`: a run told as the AI SDK 6 UI message stream (`useChat`, the `Chat` class,
 * `readUIMessageStream`), approvals answered from the chat, and `useChat`'s messages as run input. Needs the
 * optional peer `ai` for its types (and, for `toUIMessageStreamResponse`, at run time).
 * @packageDocumentation
 */
export { toUIMessageStream } from './to-ui-message-stream';
export { toUIMessageStreamResponse } from './to-ui-message-stream-response';
export type { ToUIMessageStreamResponseOptions } from './to-ui-message-stream-response';
export { decideUIApproval } from './decide-ui-approval';
export type { DecideUIApprovalOptions } from './decide-ui-approval';
export { fromUIMessages } from './from-ui-messages';
export { signUIApprovalId, verifyUIApprovalId } from './ui-approval-id';
export type { UIApprovalBinding, UIApprovalSigning } from './ui-approval-id';
export type { ToUIMessageStreamOptions, UIApprovalDecisions, UIStreamApprovals } from './ui-stream-options';
export type { WuweUIMessage, WuweUIMessageChunk, WuweUIMessageMetadata } from './ui-message-types';
export { UIStreamError } from './ui-stream-error';
export type { UIStreamErrorCode, UIStreamErrorDetails } from './ui-stream-error';
export { followUIMessageStream } from './follow-ui-message-stream';
export type { FollowedUIChunk, FollowUIMessageStreamOptions } from './follow-ui-message-stream';
export { followRunResponse } from './follow-run-response';
export type { FollowRunResponseOptions } from './follow-run-response';
