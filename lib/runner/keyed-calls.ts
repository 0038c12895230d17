import { ModelToolCall, ToolMessagePart } from '../model/model-types';
import { JsonObject } from '../outcome/json-value';
import { ToolOutcome } from '../outcome/tool-outcome';
import { ToolOutputProjectionReport } from '../projection/tool-output-projection-result';
import { ToolProviderCapabilities } from '../providers/tool-provider';
import type { CompletedCall } from './call-completion';
import type { AdmittedCall } from './call-dispatch';
import { CallKey } from './idempotency-key';
import { ToolCallRequest } from './run-options';
import { ToolCallResult } from './run-result';

/**
 * The per-call objects of the hot path whose `idempotencyKey` is a prototype getter over a
 * {@link CallKey}: the key is derived when something reads it (a store, a provider with the
 * `idempotencyKey` capability, the host), not on every call. The key sits under a symbol, so a
 * spread copy of one of these (a subclass's step that spreads its argument) still carries it.
 */
const CALL_KEY = Symbol('wuwe.callKey');

/** Where a result keeps its key: a symbol, so neither `Object.keys` nor `JSON.stringify` shows it. */
const RESULT_KEY = Symbol('wuwe.resultKey');

interface Keyed {
  readonly [CALL_KEY]: CallKey;
}

/** The key of an admitted or completed call: its {@link CallKey} when it has one (unless a copy set its own key), else its key as given. @internal */
export function callKeyOf(call: { readonly idempotencyKey: string }): CallKey | string {
  const keyed = (call as Partial<Keyed>)[CALL_KEY];
  return keyed === undefined || Object.hasOwn(call, 'idempotencyKey') ? call.idempotencyKey : keyed;
}

function valueOf(key: CallKey | string): string {
  return typeof key === 'string' ? key : key.value;
}

/** An {@link AdmittedCall} with a key derived on first read. @internal */
export class KeyedAdmittedCall implements AdmittedCall, Keyed {
  readonly [CALL_KEY]: CallKey;

  constructor(
    readonly request: ToolCallRequest,
    readonly capabilities: ToolProviderCapabilities,
    key: CallKey,
  ) {
    this[CALL_KEY] = key;
  }

  get idempotencyKey(): string {
    return this[CALL_KEY].value;
  }
}

/** A {@link CompletedCall} with a key derived on first read. @internal */
export class KeyedCompletedCall implements CompletedCall, Keyed {
  readonly [CALL_KEY]: CallKey;
  declare readonly admitted?: boolean;
  declare readonly refused?: boolean;

  constructor(
    key: CallKey,
    readonly outcome: ToolOutcome,
    readonly attempts: number,
    readonly startedAt: number,
    readonly args: JsonObject | undefined,
    readonly request: ToolCallRequest | undefined,
    flag?: 'admitted' | 'refused',
  ) {
    this[CALL_KEY] = key;
    if (flag !== undefined) (this as { admitted?: boolean; refused?: boolean })[flag] = true;
  }

  get idempotencyKey(): string {
    return this[CALL_KEY].value;
  }
}

/**
 * A {@link ToolCallResult} whose `idempotencyKey` is derived on first read and then kept. It is a
 * prototype getter, so `JSON.stringify` goes through `toJSON` (which includes it) and a spread copy
 * (`{ ...result }`) does not carry it: read it from the result itself.
 */
export class DeferredKeyToolCallResult implements ToolCallResult {
  readonly callId: string;
  readonly turn: number;
  readonly toolName: string;
  readonly rawArguments: string | JsonObject;
  readonly arguments: JsonObject | undefined;
  declare readonly admitted?: boolean;
  declare readonly parts?: readonly ToolMessagePart[];
  private readonly [RESULT_KEY]: CallKey | string;

  constructor(
    call: ModelToolCall,
    turn: number,
    completed: CompletedCall,
    readonly content: string,
    readonly projection: ToolOutputProjectionReport | undefined,
    readonly durationMs: number,
    admitted: boolean,
    parts?: readonly ToolMessagePart[],
  ) {
    this.callId = call.id;
    this.turn = turn;
    this.toolName = call.name;
    this.rawArguments = call.arguments;
    this.arguments = completed.args;
    this.outcome = completed.outcome;
    this.attempts = completed.attempts;
    this[RESULT_KEY] = callKeyOf(completed);
    if (admitted) (this as { admitted?: boolean }).admitted = true;
    if (parts !== undefined) (this as { parts?: readonly ToolMessagePart[] }).parts = parts;
  }

  readonly outcome: ToolOutcome;
  readonly attempts: number;

  get idempotencyKey(): string {
    return valueOf(this[RESULT_KEY]);
  }

  /** The result as a plain object, the key included (what `JSON.stringify` writes). */
  toJSON(): ToolCallResult {
    const { callId, turn, toolName, rawArguments, outcome, attempts, idempotencyKey, content, projection, durationMs } = this;
    const plain: ToolCallResult = {
      ...(this.parts === undefined ? {} : { parts: this.parts }),
      callId, turn, toolName, rawArguments, arguments: this.arguments, outcome, attempts, idempotencyKey, content, projection, durationMs,
    };
    return this.admitted === true ? { ...plain, admitted: true } : plain;
  }
}
