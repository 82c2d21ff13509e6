import { contract } from '@svc/contract';
import { createExpressEndpoints } from '@ts-rest/express';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { type MatchFunction, match } from 'path-to-regexp';

export type EndpointOptions = Parameters<typeof createExpressEndpoints>[3];
type Handlers = Record<string, unknown>;
type Params = Partial<Record<string, string>>;

/** `/v1/compliance/assessments/:id` → `/v1/compliance`: the key a request is dispatched on. */
export function dispatchKey(path: string): string {
  const second = path.indexOf('/', 1);
  const third = second === -1 ? -1 : path.indexOf('/', second + 1);
  return third === -1 ? path : path.slice(0, third);
}

/** The dispatch keys of a rail's routes (a key holding a parameter matches any path). */
export function dispatchKeys(routes: unknown): Set<string> {
  const keys = new Set<string>();
  const walk = (node: Record<string, unknown>) => {
    for (const v of Object.values(node)) {
      if (v && typeof v === 'object' && 'method' in v && 'path' in v) keys.add(dispatchKey(String(v.path)));
      else if (v && typeof v === 'object') walk(v as Record<string, unknown>);
    }
  };
  walk(routes as Record<string, unknown>);
  return keys;
}

/** One route of the contract as ts-rest registers it: its method, its path matcher and its handlers. */
interface RailRoute {
  method: string;
  match: MatchFunction<Params>;
  handlers: RequestHandler[];
}

/** A path parameter as Express's router decodes it: a malformed escape is a 400. */
function decodeParam(value: string): string {
  if (value.length === 0 || !value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch (err) {
    if (err instanceof URIError) Object.assign(err, { message: `Failed to decode param '${value}'`, status: 400, statusCode: 400 });
    throw err;
  }
}

/**
 * The routes ts-rest registers for one rail, recorded instead of mounted on an Express router:
 * `createExpressEndpoints` calls `app.get(path, ...handlers)` and the like, and `app.use` for its
 * validation-error handler, which only passes the error on when the service's own handler is set
 * (app.ts), so it is left out.
 */
function recordRoutes(routes: unknown, handlers: unknown, options: EndpointOptions): RailRoute[] {
  const out: RailRoute[] = [];
  const add =
    (method: string) =>
    (path: string, ...stack: RequestHandler[]) => {
      // As Express's router matches a route: case-insensitive, one trailing slash optional, each
      // parameter one segment, percent-decoded (router/lib/layer.js with path-to-regexp 8).
      const loose = path === '/' ? path : path.replace(/\/+$/, '');
      out.push({
        method,
        match: match<Params>(loose, { sensitive: false, end: true, trailing: true, decode: decodeParam }),
        handlers: stack,
      });
    };
  const recorder = { get: add('GET'), post: add('POST'), put: add('PUT'), patch: add('PATCH'), delete: add('DELETE'), use: () => {} };
  createExpressEndpoints(routes as never, handlers as never, recorder as never, options);
  return out;
}

/** Express's router answers OPTIONS on a known path with the methods it allows. */
function sendAllow(res: Response, methods: string[]): void {
  const allow = [...new Set(methods)].sort().join(', ');
  res.setHeader('Allow', allow);
  res.setHeader('Content-Length', Buffer.byteLength(allow));
  res.setHeader('Content-Type', 'text/plain');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(allow);
}

/**
 * Runs a route's handlers one after the other as Express runs a route's stack: `next()` goes on,
 * `next('route')` skips to the next matching route, `next(err)` leaves with the error; a rejected
 * promise is an error.
 */
function runRoute(route: RailRoute, req: Request, res: Response, done: (err?: unknown) => void): void {
  let i = 0;
  const step = (err?: unknown) => {
    if (err === 'route') return done('route');
    if (err !== undefined && err !== null) return done(err);
    const h = route.handlers[i++];
    if (!h) return done();
    try {
      const out = h(req, res, step as NextFunction) as unknown;
      if (out && typeof (out as Promise<unknown>).then === 'function')
        (out as Promise<unknown>).then(undefined, (e: unknown) => step(e || new Error('Rejected promise')));
    } catch (e) {
      step(e);
    }
  };
  step();
}

/**
 * Tries one rail's routes in contract order, as the Express router of that rail did: the first
 * route whose path and method match runs (HEAD runs a GET route); `next('route')` tries the ones
 * after it; an OPTIONS request on a path of the rail is answered with `Allow`. Calls `done()` when
 * no route answered, `done(err)` with an error; `req.params` is the matched route's while it runs,
 * and the caller's again afterwards.
 */
function dispatchRail(routes: readonly RailRoute[], req: Request, res: Response, path: string, done: (err?: unknown) => void): void {
  const parentParams = req.params;
  const leave = (err?: unknown) => {
    req.params = parentParams;
    done(err);
  };
  const allow: string[] | undefined = req.method === 'OPTIONS' ? [] : undefined;
  let i = 0;
  const tryNext = (err?: unknown) => {
    if (err !== undefined && err !== 'route') return leave(err);
    while (i < routes.length) {
      const route = routes[i++] as RailRoute;
      let found: ReturnType<MatchFunction<Params>>;
      try {
        found = route.match(path);
      } catch (e) {
        return leave(e);
      }
      if (!found) continue;
      const runs = route.method === req.method || (req.method === 'HEAD' && route.method === 'GET');
      if (!runs) {
        if (allow) allow.push(route.method, ...(route.method === 'GET' ? ['HEAD'] : []));
        continue;
      }
      req.params = found.params as Request['params'];
      return runRoute(route, req, res, tryNext);
    }
    if (allow && allow.length > 0) {
      req.params = parentParams;
      try {
        return sendAllow(res, allow);
      } catch (e) {
        return done(e);
      }
    }
    leave();
  };
  tryNext();
}

/**
 * The contract's routes, reached through a map keyed by the first two path segments: a request
 * tries the routes of its rail only, not every route of the service, and rails sharing a key are
 * tried in contract order. ts-rest builds each route's handlers (validation, the handler, the
 * answer); the matching is done here rather than by an Express router per rail, whose walk (its
 * per-request closures, parameter processing and route dispatch) was a measurable part of every
 * request on the hot paths, with the same rules (`recordRoutes`).
 */
export function railDispatch(handlers: Handlers, options: EndpointOptions): RequestHandler {
  const byKey = new Map<string, RailRoute[][]>();
  const anyKey: RailRoute[][] = [];
  for (const [rail, routes] of Object.entries(contract)) {
    const recorded = recordRoutes(routes, handlers[rail], options);
    for (const key of dispatchKeys(routes)) {
      if (key.includes(':')) anyKey.push(recorded);
      else byKey.set(key, [...(byKey.get(key) ?? []), recorded]);
    }
  }
  return (req, res, next) => {
    let path: string;
    try {
      path = req.path;
    } catch {
      return next();
    }
    const own = byKey.get(dispatchKey(path));
    const rails = anyKey.length === 0 ? (own ?? anyKey) : [...(own ?? []), ...anyKey];
    let i = 0;
    const step = (err?: unknown) => {
      if (err !== undefined) return next(err);
      const routes = rails[i++];
      if (!routes) return next();
      dispatchRail(routes, req, res, path, step);
    };
    step();
  };
}
