/**
 * `@svc/contract/wire`: the API's wire constants, in a module of their own that imports nothing,
 * so that a client that only sends requests (the SDK's main entry, the CLI) does not load the
 * contract's schemas (zod builds about 600 routes' worth of them at import: most of a second).
 * The main entry re-exports all of it.
 */

/** The nine error codes of the API and the HTTP status each one is sent with. */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  validation_failed: 422,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** The error code of a status: its own, else `internal_error` for a 5xx and `bad_request` for the rest. */
export function statusToCode(status: number): ErrorCode {
  const found = ERROR_CODES.find((code) => ERROR_STATUS[code] === status);
  return found ?? (status >= 500 ? 'internal_error' : 'bad_request');
}

/** Request headers the contract names; auth is declared as the bearer security scheme. */
export const HEADER_NAMES = {
  tenant: 'x-iof-tenant',
  idempotencyKey: 'idempotency-key',
  correlationId: 'x-correlation-id',
  idempotentReplayed: 'idempotent-replayed',
  rateLimitLimit: 'x-ratelimit-limit',
  rateLimitRemaining: 'x-ratelimit-remaining',
  rateLimitReset: 'x-ratelimit-reset',
  retryAfter: 'retry-after',
} as const;

/** How far a webhook signature's timestamp may be from the receiver's clock, in seconds. */
export const WEBHOOK_SIGNATURE_TOLERANCE_SECONDS = 300;
