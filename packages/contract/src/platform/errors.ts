import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../wire.ts';

export { ERROR_CODES, ERROR_STATUS, type ErrorCode, statusToCode } from '../wire.ts';

/** One line per code, used in messages, the OpenAPI document and the documentation links. */
export const ERROR_DESCRIPTIONS: Record<ErrorCode, string> = {
  bad_request:
    'The request could not be read: a body that is not JSON (or a bare JSON string, number or null), a query string that does not decode (bad percent-encoding) or gives one parameter twice, a bad cursor or a malformed header.',
  unauthorized: 'The bearer token is missing, unknown, expired or revoked.',
  forbidden: 'The credential is valid but lacks the tier, role, scope or tenant the route needs.',
  not_found: 'The resource or route does not exist, or is not visible to the caller.',
  conflict: 'The request conflicts with the state of a resource or with an earlier idempotent request.',
  validation_failed:
    'The request reads well but does not match the schema (a missing field or parameter, a wrong type, a value out of range or not storable); see details.',
  rate_limited: 'The plan rate limit or monthly quota is exhausted; see the X-RateLimit headers and Retry-After.',
  internal_error: 'The server failed; quote the correlation id to support.',
  service_unavailable: 'A dependency is degraded; retry with backoff.',
};

/** The small, stable vocabulary of `details[].issue` values. */
export const DETAIL_ISSUES = [
  'missing',
  'invalid_type',
  'invalid_value',
  'too_small',
  'too_big',
  'invalid_format',
  'unknown_field',
] as const;

/**
 * The page that explains each error code (one anchor per code), as the service serves it at its
 * default address; a running service names its own address in `documentation_url`, and the
 * OpenAPI document its `servers[0]` origin.
 */
export const DOCS_BASE_URL = 'http://127.0.0.1:8080/docs/errors';

export const ErrorDetail = z
  .object({
    field: z.string().meta({ description: 'Dotted path of the offending field, header or parameter.' }),
    issue: z.string().meta({ description: `One of ${DETAIL_ISSUES.join(', ')}, or a code-specific word.` }),
    message: z.string().optional().meta({ description: 'Human-readable explanation; may change, do not parse.' }),
  })
  .meta({ id: 'ErrorDetail' });

export const ErrorEnvelope = z
  .object({
    error: z
      .enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]])
      .meta({ description: 'Error code; one of the nine codes of the error table.' }),
    message: z.string().meta({ description: 'Human-readable explanation; may change, do not parse.' }),
    details: z.array(ErrorDetail).optional().meta({ description: 'Per-field problems; absent when the error has none.' }),
    correlation_id: z
      .string()
      .meta({ description: 'Correlation id of the failed request, as in the `X-Correlation-Id` header; quote it to support.' }),
    documentation_url: z.string().meta({ description: 'Link to the documentation of the error code.' }),
  })
  .meta({
    id: 'Error',
    examples: [
      {
        error: 'validation_failed',
        message: 'The request body does not match the schema.',
        details: [{ field: 'systemId', issue: 'missing' }],
        correlation_id: 'cor_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        documentation_url: `${DOCS_BASE_URL}#validation_failed`,
      },
    ],
  });
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;
export type ErrorDetail = z.infer<typeof ErrorDetail>;

/** Error responses every authenticated route may give; spread into every router once. */
export const commonErrorResponses = {
  400: ErrorEnvelope,
  401: ErrorEnvelope,
  403: ErrorEnvelope,
  404: ErrorEnvelope,
  409: ErrorEnvelope,
  422: ErrorEnvelope,
  429: ErrorEnvelope,
  500: ErrorEnvelope,
  503: ErrorEnvelope,
} as const;
