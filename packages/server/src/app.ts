import { IncomingMessage, ServerResponse } from 'node:http';
import { contract, generateOpenApiDocument } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import express, { type Request, type Response } from 'express';
import { match } from 'path-to-regexp';
import type { Database } from './db/client.ts';
import { DOCS_PATH, docsRouter, ERRORS_PAGE_PATH } from './docs/routes.ts';
import { ctxOf } from './http/context.ts';
import { corsPolicy, type HttpHardening, securityHeaders } from './http/hardening.ts';
import { idempotency } from './http/idempotency.ts';
import { inputGuard } from './http/input-guard.ts';
import { authenticate, correlation, errorMapper, notFound, rateLimit, routePolicy, tenantHeader } from './http/pipeline.ts';
import { railDispatch } from './http/rail-dispatch.ts';
import type { CounterStore } from './http/rate-limit.ts';
import type { Logger } from './logger.ts';
import { metricsHandler, routeLabel } from './observability/metrics.ts';
import { initTracing, requestSpans } from './observability/tracing.ts';
import type { RailDeps } from './rails/deps.ts';
import { railHandlers } from './rails/index.ts';
import type { WebhookConfig } from './webhooks/config.ts';

export interface AppOptions {
  /** Origin written in `servers` of the served OpenAPI document; read per request because the port is known only once listening. */
  publicUrl?: () => string | undefined;
  db: Database;
  log: Logger;
  counters: CounterStore;
  bodyLimit: string;
  authCacheMs: number;
  idempotencyTtlMs: number;
  anonymousPerSecond: number;
  operatorPerSecond: number;
  version: string;
  /** Settings of the webhook routes (target checks, rotation overlap). */
  webhooks: WebhookConfig;
  reconcileIntervalSeconds: number;
  /** Security headers and CORS (slow-client limits are the HTTP server's, in index.ts). */
  http: Pick<HttpHardening, 'hsts' | 'corsOrigins'>;
  /**
   * Proxies whose X-Forwarded-For gives `req.ip` (`SVC_TRUST_PROXY`); otherwise the peer's address is the
   * client's. The anonymous routes' rate limit and idempotency scope are per `req.ip`.
   */
  trustProxy?: false | number | string[];
  /**
   * Bearer token GET /metrics requires; SVC_METRICS_TOKEN of the process environment when not
   * given. Without one /metrics is open: keep it off the public network.
   */
  metricsToken?: string;
}

const OPENAPI_PATH = '/v1/openapi.json';
const METRICS_PATH = '/metrics';
/** The paths of the service's own routes, matched as Express's router matches a route's path (any case, one trailing slash). */
const isOwnPath = match([OPENAPI_PATH, METRICS_PATH], { sensitive: false, end: true, trailing: true });

/** Marks the request as having reached its handler (the idempotency layer stores only those). */
function markHandlers<T>(impl: T): T {
  if (typeof impl === 'function') {
    return ((input: { res: Response }) => {
      ctxOf(input.res).handlerRan = true;
      return impl(input);
    }) as T;
  }
  return Object.fromEntries(Object.entries(impl as object).map(([k, v]) => [k, markHandlers(v)])) as T;
}

/** Node's request and response classes of an app's HTTP server (see `serverClasses`). */
export interface ServerClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

const appClasses = new WeakMap<express.Express, ServerClasses>();

/**
 * Node's request and response classes whose objects have Express's request and response methods
 * (the app's `request` and `response`) in their prototype chain from construction, for the app's
 * HTTP server (`http.createServer`'s `IncomingMessage` and `ServerResponse` options). Express
 * otherwise re-parents every request and response with `Object.setPrototypeOf` after Node's HTTP
 * code has built and used them: changing a live object's prototype is slow in V8, and slows the code
 * that touches the object afterwards. Measured by two API processes on one database in alternated
 * 2 s rounds: CPU per GET 615 -> 428 and 657 -> 450 µs (1.25x and 1.23x the GETs a second), per
 * POST 1,655 -> 1,423 µs (1.09x).
 */
function expressClasses(app: express.Express): ServerClasses {
  class AppRequest extends IncomingMessage {}
  Object.setPrototypeOf(AppRequest.prototype, app.request);
  class AppResponse extends ServerResponse {}
  Object.setPrototypeOf(AppResponse.prototype, app.response);
  return { IncomingMessage: AppRequest, ServerResponse: AppResponse as unknown as typeof ServerResponse };
}

/** The classes for the HTTP server of an app made by `createApp`. */
export function serverClasses(app: express.Express): ServerClasses | undefined {
  return appClasses.get(app);
}

type AppHandle = (req: Request, res: Response, callback?: (err?: unknown) => void) => void;

/** Middleware run one after the other, as one step (a router would match and dispatch each in turn). */
function series(...steps: express.RequestHandler[]): express.RequestHandler {
  return (req, res, next) => {
    let i = 0;
    const step = (err?: unknown) => {
      if (err !== undefined && err !== null) return next(err);
      const h = steps[i++];
      if (!h) return next();
      try {
        const out = h(req, res, step) as unknown;
        if (out instanceof Promise) out.catch(next);
      } catch (e) {
        next(e);
      }
    };
    step();
  };
}

export function createApp(opts: AppOptions): express.Express {
  const { prisma } = opts.db;
  const s = initServer();
  const openapiByUrl = new Map<string, string>();
  const openapiFor = (url: string | undefined) => {
    const key = url ?? '';
    let doc = openapiByUrl.get(key);
    if (doc === undefined) {
      doc = JSON.stringify(generateOpenApiDocument(url ? { serverUrl: url } : {}));
      openapiByUrl.set(key, doc);
    }
    return doc;
  };

  const deps: RailDeps = {
    db: opts.db,
    version: opts.version,
    reconcileIntervalSeconds: opts.reconcileIntervalSeconds,
    webhooks: opts.webhooks,
  };
  const router = s.router(contract, railHandlers(deps));

  // Tracing is on only with an OTLP endpoint in the environment; idempotent (index.ts may have
  // started it earlier, before the instrumented modules were loaded).
  initTracing().catch((err: unknown) => opts.log.warn('tracing not started', { error: String(err) }));
  const publicOrigin = () => opts.publicUrl?.()?.replace(/\/+$/, '');

  const app = express();
  // Every JSON answer goes through here (ts-rest, the error mapper, idempotent replays). Express's
  // own res.json runs res.send's content negotiation, charset parsing and freshness checks on every
  // response; none applies to this API (no ETags, always UTF-8 JSON), and on the hot paths that
  // work was a tenth of the process's CPU. Node omits the body of HEAD answers itself.
  app.response.json = function json(this: Response, body: unknown) {
    if (this.statusCode === 204 || this.statusCode === 304) {
      this.end();
      return this;
    }
    // Encoded to UTF-8 once: its length is the Content-Length, and the socket writes the same bytes
    // (Buffer.byteLength of the string and then end(string) encoded it twice).
    const bytes = Buffer.from(JSON.stringify(body) ?? 'null');
    if (!this.hasHeader('Content-Type')) this.setHeader('Content-Type', 'application/json; charset=utf-8');
    this.setHeader('Content-Length', bytes.length);
    this.end(bytes);
    return this;
  };
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', opts.trustProxy ?? false);
  const docs = docsRouter({ openapiPath: OPENAPI_PATH, publicUrl: publicOrigin });
  const crossOrigin = corsPolicy(opts.http);
  const json = express.json({ limit: opts.bodyLimit, type: ['application/json', 'application/*+json'] });
  // The two routes of the service beside the contract's, on a router of their own that a request
  // reaches only when its path is one of theirs (matched as Express matches: any case, one
  // trailing slash).
  const own = express.Router();
  own.get(OPENAPI_PATH, (_req, res) => {
    res.type('application/json').send(openapiFor(opts.publicUrl?.()));
  });
  // Prometheus text format; see observability/metrics.ts.
  own.get(METRICS_PATH, metricsHandler({ db: opts.db, token: opts.metricsToken ?? process.env.SVC_METRICS_TOKEN }));
  // The whole pipeline as one step (each step of a router costs every request a match, its result
  // objects and a dispatch), then the error mapper.
  const pipeline = series(
    requestSpans((req) => routeLabel(req as Parameters<typeof routeLabel>[0])),
    securityHeaders(opts.http),
    // Preflights carry no credentials: answered before authentication when CORS is on.
    ...(crossOrigin ? [crossOrigin] : []),
    correlation(opts.log),
    authenticate({ prisma, cacheTtlMs: opts.authCacheMs }),
    rateLimit({ store: opts.counters, anonymousPerSecond: opts.anonymousPerSecond, operatorPerSecond: opts.operatorPerSecond }),
    tenantHeader,
    // No route reads a body on GET, HEAD or OPTIONS: the parser is skipped there (a per-request cost).
    (req, res, next) => (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS' ? next() : json(req, res, next)),
    (req, res, next) => ((req.method === 'GET' || req.method === 'HEAD') && isOwnPath(req.path) ? own(req, res, next) : next()),
    // The API reference, the guides and the error-code pages (no token; see docs/routes.ts).
    (req, res, next) => (req.path === DOCS_PATH || req.path.startsWith(`${DOCS_PATH}/`) ? docs(req, res, next) : next()),
    railDispatch(markHandlers(router), {
      logInitialization: false,
      jsonQuery: false,
      responseValidation: false,
      globalMiddleware: [routePolicy, inputGuard, idempotency({ db: opts.db, ttlMs: opts.idempotencyTtlMs })] as never[],
      requestValidationErrorHandler: (err, _req, _res, next) => next(err),
    }),
    notFound,
  );
  // documentation_url: the error page this service serves, under its public URL when known.
  const mapError = errorMapper({ docsUrl: () => `${publicOrigin() ?? ''}${ERRORS_PAGE_PATH}` });
  // The app's own dispatch, in place of Express's `app.handle`, which sets up what the pipeline
  // uses (the two objects linked, Express's request and response methods, res.locals) and then walks
  // the app's router, whose every request costs a URL parse, a layer match, a parameter pass and the
  // restoring closures of a router that would hold only these two layers (3-7 % of a GET's CPU in an
  // alternated A/B of two API processes). What that router would set and this pipeline reads is set
  // here: baseUrl (the app is never mounted), originalUrl, params. The pipeline ends in `notFound`, and
  // the error mapper answers every error, so `callback` (given only when the app is mounted in
  // another, which the service never does) is reached by neither.
  const classes = expressClasses(app);
  appClasses.set(app, classes);
  (app as unknown as { handle: AppHandle }).handle = (req, res, callback) => {
    req.res = res;
    res.req = req;
    // Objects of the app's server classes (expressClasses) carry Express's methods from birth; any
    // other (a server made without them, as a test's may be) is re-parented.
    if (!(req instanceof classes.IncomingMessage)) Object.setPrototypeOf(req, app.request);
    if (!(res instanceof classes.ServerResponse)) Object.setPrototypeOf(res, app.response);
    if (!res.locals) res.locals = Object.create(null);
    req.baseUrl = '';
    req.originalUrl ||= req.url;
    req.params = {};
    pipeline(req, res, (err?: unknown) => {
      if (err === undefined || err === null || err === 'route' || err === 'router') return callback?.();
      try {
        mapError(err, req, res, () => callback?.());
      } catch (e) {
        callback?.(e);
      }
    });
  };
  return app;
}
