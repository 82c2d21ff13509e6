/**
 * `@svc/sdk`: the typed TypeScript client of the compliance platform API, generated at run time
 * from the ts-rest contract in `@svc/contract`. Mock handlers for msw live in `@svc/sdk/msw`.
 *
 * @packageDocumentation
 */
export {
  type ClientHelpers,
  createRouterClient,
  createSvcClient,
  type ListPage,
  type RouteArgs,
  type RouteBody,
  type RouteMethod,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
  type RouterClient,
  type SvcClient,
} from './client.ts';
export {
  BadRequestError,
  ConflictError,
  ERROR_CLASSES,
  errorFromResponse,
  ForbiddenError,
  InternalServerError,
  isSvcError,
  NotFoundError,
  RateLimitedError,
  retryAfterSeconds,
  ServiceUnavailableError,
  SvcConnectionError,
  SvcError,
  type SvcErrorDetail,
  type SvcErrorInit,
  UnauthorizedError,
  ValidationFailedError,
} from './errors.ts';
export {
  buildQueryString,
  fillPath,
  type RawRequestOptions,
  type RawResponse,
  type RequestOptions,
  type SvcClientOptions,
} from './transport.ts';
