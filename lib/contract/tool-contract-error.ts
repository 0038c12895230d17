import { WuweError } from '../errors/wuwe-error';
import { hasErrorMarker } from '../errors/error-marker';

/** Codes of {@link ToolContractError}. */
export type ToolContractErrorCode = 'invalid_contract' | 'capability_mismatch';

const TOOL_CONTRACT_ERROR_MARKER = Symbol.for('wuwe.error.ToolContractError');

/** A contract that cannot hold, found at definition or bind time. Lists every problem. */
export class ToolContractError extends WuweError<ToolContractErrorCode> {
  private readonly [TOOL_CONTRACT_ERROR_MARKER] = true;

  /** True when `value` is a ToolContractError, from this or another copy of the package. */
  static override isInstance(value: unknown): value is ToolContractError {
    return hasErrorMarker(value, TOOL_CONTRACT_ERROR_MARKER);
  }

  constructor(
    code: ToolContractErrorCode,
    readonly toolName: string,
    readonly problems: readonly string[],
  ) {
    super(code, `Tool '${toolName}' has an invalid contract: ${problems.join('; ')}`);
  }
}
