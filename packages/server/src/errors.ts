import { ERROR_STATUS, type ErrorCode, type ErrorDetail } from '@svc/contract';

/** The one error type handlers throw; the error mapper renders it as the envelope. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string, id: string) => new ApiError('not_found', `${what} ${id} was not found.`);

/** 422 `validation_failed` naming the field: the message is the detail's too. */
export const invalid = (field: string, message: string, issue: ErrorDetail['issue'] = 'invalid_value') =>
  new ApiError('validation_failed', message, [{ field, issue, message }]);

/**
 * 409 `conflict` of a record not in a state its action is allowed from, in the kit's words:
 * `Assessment asm_... is completed; start is allowed from draft.`
 */
export const stateConflict = (what: string, id: string, state: string, verb: string, from: readonly string[], field = 'status') =>
  new ApiError('conflict', `${what} ${id} is ${state}; ${verb} is allowed from ${from.join(', ')}.`, [
    { field, issue: 'invalid_value', message: `current state: ${state}` },
  ]);
