import { WuweError } from '../errors/wuwe-error';

/** Codes of {@link ToolContractError}. */
export type ToolContractErrorCode = 'invalid_contract' | 'capability_mismatch';

/** A contract that cannot hold, found at definition or bind time. Lists every problem. */
export class ToolContractError extends WuweError<ToolContractErrorCode> {
  constructor(
    code: ToolContractErrorCode,
    readonly toolName: string,
    readonly problems: readonly string[],
  ) {
    super(code, `Tool '${toolName}' has an invalid contract: ${problems.join('; ')}`);
  }
}
