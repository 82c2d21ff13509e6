import { HEADER_NAMES, statusToCode } from '@svc/contract/wire';
import type { components } from './openapi-types.ts';

/**
 * The nine error codes of the API, from the OpenAPI document's `Error` schema (the declarations of
 * the SDK do not load the contract; test/sdk.test.ts checks this is the contract's `ErrorCode`).
 */
type ErrorCode = components['schemas']['Error']['error'];

/** One entry of an error envelope's `details`: which field failed and how. */
export interface SvcErrorDetail {
  /** Dotted path of the offending field, header or parameter (`systemId`, `attester.email`, `quota`). */
  field: string;
  /** `missing`, `invalid_type`, `invalid_value`, `too_small`, `too_big`, `invalid_format`, `unknown_field`, or a code-specific word. */
  issue: string;
  /** Human-readable explanation, when the server gives one. */
  message?: string;
}

/** What every {@link SvcError} is built from: the HTTP status and the parsed error envelope. */
export interface SvcErrorInit {
  status: number;
  code: string;
  message: string;
  correlationId?: string | undefined;
  details?: SvcErrorDetail[] | undefined;
  documentationUrl?: string | undefined;
  headers?: Headers | undefined;
  /** The response body as received (parsed JSON, text, or undefined). */
  raw?: unknown;
}

// A registered symbol rather than `instanceof` alone, so that two copies of the SDK in one process
// (a CLI bundling its own, say) still recognise each other's errors.
const SVC_ERROR = Symbol.for('svc.sdk.SvcError');

/**
 * An error response of the API (any non-2xx status). Subclasses name the error code, so callers
 * can `catch (e) { if (e instanceof NotFoundError) ... }`, or switch on `e.code`.
 */
export class SvcError extends Error {
  override name = 'SvcError';
  /** HTTP status of the response. */
  readonly status: number;
  /** Machine code of the envelope (`not_found`, `validation_failed`, ...). */
  readonly code: ErrorCode | (string & {});
  /** Correlation id to quote to support: the body's `correlation_id`, else the `X-Correlation-Id` header. */
  readonly correlationId: string | undefined;
  /** Field-level issues; empty when the server sent none. */
  readonly details: SvcErrorDetail[];
  /** Link to the description of the code. */
  readonly documentationUrl: string | undefined;
  /** Response headers (rate-limit headers, `Retry-After`, ...). */
  readonly headers: Headers;
  /** The response body as received. */
  readonly raw: unknown;

  /** Builds an error from a status and envelope; most callers meet these only through `catch`. */
  constructor(init: SvcErrorInit) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.correlationId = init.correlationId;
    this.details = init.details ?? [];
    this.documentationUrl = init.documentationUrl;
    this.headers = init.headers ?? new Headers();
    this.raw = init.raw;
    Object.defineProperty(this, SVC_ERROR, { value: true });
  }
}

/** 400 `bad_request`: malformed JSON, a bad cursor or a malformed header. */
export class BadRequestError extends SvcError {
  override name = 'BadRequestError';
  declare readonly code: 'bad_request';
}

/** 401 `unauthorized`: the bearer token is missing, unknown, expired or revoked. */
export class UnauthorizedError extends SvcError {
  override name = 'UnauthorizedError';
  declare readonly code: 'unauthorized';
}

/** 403 `forbidden`: the credential lacks the tier, role, scope or tenant the route needs. */
export class ForbiddenError extends SvcError {
  override name = 'ForbiddenError';
  declare readonly code: 'forbidden';
}

/** 404 `not_found`: the resource or route does not exist, or is not visible to the caller. */
export class NotFoundError extends SvcError {
  override name = 'NotFoundError';
  declare readonly code: 'not_found';
}

/** 409 `conflict`: a state conflict, or an idempotency key reused for another request or still in flight. */
export class ConflictError extends SvcError {
  override name = 'ConflictError';
  declare readonly code: 'conflict';
}

/** 422 `validation_failed`: the request does not match the schema; `details` names each field. */
export class ValidationFailedError extends SvcError {
  override name = 'ValidationFailedError';
  declare readonly code: 'validation_failed';
}

/** 429 `rate_limited`: the plan's per-second limit or the monthly quota is exhausted. */
export class RateLimitedError extends SvcError {
  override name = 'RateLimitedError';
  declare readonly code: 'rate_limited';
  /** Seconds the server asked to wait (`Retry-After`); undefined when it gave none. */
  readonly retryAfterSeconds: number | undefined;

  /** See {@link SvcError}; `retryAfterSeconds` is read from the `Retry-After` header. */
  constructor(init: SvcErrorInit) {
    super(init);
    this.retryAfterSeconds = retryAfterSeconds(this.headers);
  }
}

/** 500 `internal_error`: the server failed; quote `correlationId` to support. */
export class InternalServerError extends SvcError {
  override name = 'InternalServerError';
  declare readonly code: 'internal_error';
}

/** 503 `service_unavailable`: a dependency is degraded; retried automatically with backoff. */
export class ServiceUnavailableError extends SvcError {
  override name = 'ServiceUnavailableError';
  declare readonly code: 'service_unavailable';
}

/**
 * The request never produced an HTTP response: DNS or connection failure, reset, or the
 * per-attempt timeout (`timedOut`). Thrown after the retries are spent. Not an {@link SvcError}:
 * it has no status and no envelope.
 */
export class SvcConnectionError extends Error {
  override name = 'SvcConnectionError';
  /** True when the attempt was cut off by `timeoutMs`. */
  readonly timedOut: boolean;

  /** Wraps the underlying failure as `cause`. */
  constructor(message: string, options: { cause?: unknown; timedOut?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.timedOut = options.timedOut ?? false;
  }
}

type SvcErrorClass = new (init: SvcErrorInit) => SvcError;

/** The subclass for each error code; the one place codes meet classes. */
export const ERROR_CLASSES = {
  bad_request: BadRequestError,
  unauthorized: UnauthorizedError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  conflict: ConflictError,
  validation_failed: ValidationFailedError,
  rate_limited: RateLimitedError,
  internal_error: InternalServerError,
  service_unavailable: ServiceUnavailableError,
} as const satisfies Record<ErrorCode, SvcErrorClass>;

/** True for any error response of the API, whichever subclass (not for {@link SvcConnectionError}). */
export function isSvcError(value: unknown): value is SvcError {
  return value instanceof SvcError || (typeof value === 'object' && value !== null && SVC_ERROR in value);
}

/**
 * `Retry-After` in seconds: delta-seconds or an HTTP date (RFC 9110); undefined when absent or
 * unreadable.
 */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get(HEADER_NAMES.retryAfter)?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function detailsOf(value: unknown): SvcErrorDetail[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((d) => ({
    field: String(d.field ?? ''),
    issue: String(d.issue ?? ''),
    ...(typeof d.message === 'string' ? { message: d.message } : {}),
  }));
}

/**
 * The typed error for a non-2xx response. The class follows the envelope's `error` code; when the
 * body is not an envelope (a proxy's HTML page, say) it follows the status.
 */
export function errorFromResponse(status: number, body: unknown, headers: Headers): SvcError {
  const envelope = isRecord(body) ? body : {};
  const bodyCode = typeof envelope.error === 'string' ? envelope.error : undefined;
  const code = bodyCode ?? statusToCode(status);
  const Class: SvcErrorClass = Object.hasOwn(ERROR_CLASSES, code) ? ERROR_CLASSES[code as ErrorCode] : SvcError;
  const message =
    typeof envelope.message === 'string'
      ? envelope.message
      : `HTTP ${status}${typeof body === 'string' && body ? `: ${body.slice(0, 200)}` : ''}`;
  return new Class({
    status,
    code,
    message,
    correlationId:
      typeof envelope.correlation_id === 'string' ? envelope.correlation_id : (headers.get(HEADER_NAMES.correlationId) ?? undefined),
    details: detailsOf(envelope.details),
    documentationUrl: typeof envelope.documentation_url === 'string' ? envelope.documentation_url : undefined,
    headers,
    raw: body,
  });
}
