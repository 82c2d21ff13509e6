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
