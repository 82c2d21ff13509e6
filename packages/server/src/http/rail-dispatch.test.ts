import type { AddressInfo } from 'node:net';
import { contract } from '@svc/contract';
import { createExpressEndpoints, initServer } from '@ts-rest/express';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchKey, dispatchKeys, type EndpointOptions, railDispatch } from './rail-dispatch.ts';

// The dispatcher against what it replaced: one Express router per rail, reached through the same
// map of the first two path segments. Both serve the whole contract with handlers that echo what
// they were given; every route is called, and a sample of them in the forms a client or an
// attacker sends (case, trailing slashes, escapes good and bad, HEAD, OPTIONS, other methods), and
// each pair of answers must be the same.

interface Route {
  method: string;
  path: string;
}

const routes: Route[] = [];
function echoHandlers(node: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => {
      if (v && typeof v === 'object' && 'method' in v && 'path' in v) {
        const route = { method: String(v.method), path: String(v.path) };
        routes.push(route);
        return [
          k,
          async ({ params, req }: { params: unknown; req: express.Request }) => ({
            status: 200,
            body: { route: `${route.method} ${route.path}`, params, reqParams: { ...req.params } },
          }),
        ];
      }
      return [k, echoHandlers(v as Record<string, unknown>)];
    }),
  );
}
const handlers = echoHandlers(contract as unknown as Record<string, unknown>);
const router = initServer().router(contract, handlers as never) as unknown as Record<string, unknown>;

/** A handler every route runs first, as the service's global middleware does: it may pass the route by. */
const skipper: RequestHandler = (req, _res, next) => (req.get('x-skip-route') ? next('route') : next());
const options: EndpointOptions = {
  logInitialization: false,
  jsonQuery: false,
  responseValidation: false,
  globalMiddleware: [skipper] as never[],
  requestValidationErrorHandler: (err, _req, _res, next) => next(err),
};

/** The dispatch it replaced (app.ts until 2026-12-03): an Express router per rail. */
function routerDispatch(): RequestHandler {
  const byKey = new Map<string, express.Router[]>();
  const anyKey: express.Router[] = [];
  for (const [rail, railRoutes] of Object.entries(contract)) {
    const railRouter = express.Router();
    createExpressEndpoints(railRoutes as never, router[rail] as never, railRouter, options);
    for (const key of dispatchKeys(railRoutes)) {
      if (key.includes(':')) anyKey.push(railRouter);
      else byKey.set(key, [...(byKey.get(key) ?? []), railRouter]);
    }
  }
  return (req, res, next) => {
    const own = byKey.get(dispatchKey(req.path));
    const routers = anyKey.length === 0 ? (own ?? anyKey) : [...(own ?? []), ...anyKey];
    let i = 0;
    const step = (err?: unknown) => {
      if (err !== undefined && err !== 'route' && err !== 'router') return next(err);
      const r = routers[i++];
      if (!r) return next();
      r(req, res, step);
    };
    step();
  };
}

const errors: ErrorRequestHandler = (err, req, res, _next) => {
  const e = err as { status?: number; message?: string; pathParams?: unknown };
  res.status(e.status ?? (e.pathParams !== undefined ? 422 : 500)).json({
    error: e.pathParams !== undefined ? 'validation' : String(e.message),
    params: { ...req.params },
  });
};

function serve(dispatch: RequestHandler): Promise<{ url: string; close: () => void }> {
  const app = express();
  app.set('etag', false);
  app.use(express.json());
  app.use(dispatch);
  app.use((req, res) => res.status(404).json({ notFound: req.method, params: { ...req.params } }));
  app.use(errors);
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() }),
    );
  });
}

let before: { url: string; close: () => void };
let after: { url: string; close: () => void };
beforeAll(async () => {
  before = await serve(routerDispatch());
  after = await serve(railDispatch(router, options));
});
afterAll(() => {
  before?.close();
  after?.close();
});

async function answer(base: string, method: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: ['POST', 'PUT', 'PATCH'].includes(method) ? '{}' : undefined,
  });
  return { status: res.status, allow: res.headers.get('allow'), type: res.headers.get('content-type'), body: await res.text() };
}

async function same(method: string, path: string, headers: Record<string, string> = {}) {
  const [was, is] = await Promise.all([answer(before.url, method, path, headers), answer(after.url, method, path, headers)]);
  expect(is, `${method} ${path}`).toEqual(was);
  return is;
}

const concrete = (path: string, value: string) => path.replace(/:[A-Za-z0-9_]+/g, value);

describe('rail dispatch', () => {
  it('answers every route of the contract as the Express routers did', async () => {
    expect(routes.length).toBeGreaterThan(400);
    let routed = 0;
    for (const r of routes) {
      const out = await same(r.method, concrete(r.path, 'abc_01'));
      if (out.body.includes('"route"')) routed++;
    }
    // Most sample ids fail a route's own id pattern (422); the rest reach their handler.
    expect(routed).toBeGreaterThan(100);
  }, 120_000);

  it('matches as they did: case, trailing slashes, escapes, HEAD, OPTIONS, other methods, next("route")', async () => {
    const sample = routes.filter((_, i) => i % 7 === 0);
    for (const r of sample) {
      const path = concrete(r.path, 'abc_01');
      await same(r.method, path.toUpperCase());
      await same(r.method, `${path.slice(0, 3)}${path.slice(3).toUpperCase()}`);
      await same(r.method, `${path}/`);
      await same(r.method, `${path}//`);
      await same(r.method, `${path}?limit=5`);
      await same(r.method, concrete(r.path, 'a%62c'));
      await same(r.method, concrete(r.path, '%E0%A4%A'));
      await same(r.method, concrete(r.path, 'a%2Fb'));
      await same('HEAD', path);
      await same('OPTIONS', path);
      await same(r.method === 'GET' ? 'PATCH' : 'GET', path);
      await same(r.method, path, { 'x-skip-route': '1' });
      await same(r.method, `${path}/extra`);
    }
    for (const path of ['/', '/v1', '/v1/', '/v1/nothing/here', '//v1/compliance/frameworks', '/v1/compliance', '/%']) {
      await same('GET', path);
      await same('OPTIONS', path);
    }
  }, 120_000);

  it('answers OPTIONS on a known path with the methods it allows, and runs a GET route for HEAD', async () => {
    const options = await same('OPTIONS', '/v1/compliance/frameworks');
    expect(options.status).toBe(200);
    expect(options.allow).toBe('GET, HEAD');
    const head = await same('HEAD', '/v1/compliance/frameworks');
    expect(head.status).toBe(200);
    const bad = await same('GET', concrete('/v1/compliance/assessments/:id', '%E0%A4%A'));
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('Failed to decode param');
  });
});
