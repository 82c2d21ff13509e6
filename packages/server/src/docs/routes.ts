/**
 * GET /docs: the API reference of the live OpenAPI document (/v1/openapi.json) through Scalar's
 * Express middleware, with its script served by the service (docs/bundle.ts), so it works with
 * no internet; GET /docs/guides[/<slug>]: the guides; GET /docs/errors: the error codes, one anchor
 * per code, where every error envelope's `documentation_url` points. No token needed.
 *
 * The API's Content-Security-Policy forbids scripts; these pages get their own: scripts from the
 * service with a per-response nonce for the one inline initialiser, no third-party origin.
 */
import { randomBytes } from 'node:crypto';
import { apiReference } from '@scalar/express-api-reference';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { findDocsBundle } from './bundle.ts';
import { guidePage, guidesIndex } from './guides.ts';

export const DOCS_PATH = '/docs';
export const DOCS_BUNDLE_PATH = '/docs/assets/api-reference.js';
export const ERRORS_PAGE_PATH = '/docs/errors';

export interface DocsOptions {
  /** Where the OpenAPI document is served. */
  openapiPath: string;
  /** The service's public origin (SVC_PUBLIC_URL, else the listening URL), for the examples. */
  publicUrl: () => string | undefined;
}

function csp(nonce?: string): string {
  return [
    "default-src 'self'",
    `script-src 'self'${nonce ? ` 'nonce-${nonce}'` : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

function html(res: Response, body: string, nonce?: string): void {
  res.setHeader('Content-Security-Policy', csp(nonce));
  res.setHeader('Cache-Control', 'no-cache');
  res.type('text/html; charset=utf-8').send(body);
}

/** The origin of the examples on the pages: the public URL, else the one the request came to. */
function originOf(req: Request, opts: DocsOptions): string {
  return (opts.publicUrl() ?? `${req.protocol}://${req.get('host') ?? '127.0.0.1'}`).replace(/\/+$/, '');
}

export function docsRouter(opts: DocsOptions): express.Router {
  const router = express.Router();
  const reference: RequestHandler = (_req, res, next) => {
    const nonce = randomBytes(16).toString('base64');
    // Scalar's handler writes the page; the nonce makes it load the single-file bundle from `cdn`.
    const render = apiReference({
      url: opts.openapiPath,
      cdn: DOCS_BUNDLE_PATH,
      nonce,
      pageTitle: 'Compliance Platform Service API reference',
      withDefaultFonts: false,
      hideClientButton: true,
      telemetry: false,
      // Offline and self-contained: no Scalar cloud features (agent chat, MCP generator, toolbar).
      showDeveloperTools: 'never',
      agent: { disabled: true },
      mcp: { disabled: true },
    } as Parameters<typeof apiReference>[0]);
    res.setHeader('Content-Security-Policy', csp(nonce));
    res.setHeader('Cache-Control', 'no-cache');
    (render as unknown as RequestHandler)(_req, res, next);
  };
  router.get(DOCS_PATH, reference);
  router.get(`${DOCS_PATH}/reference`, reference);
  router.get(DOCS_BUNDLE_PATH, (_req, res, next) => {
    const bundle = findDocsBundle();
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.setHeader('X-Svc-Docs-Bundle', bundle.kind);
    res.type('application/javascript; charset=utf-8');
    res.sendFile(bundle.file, (err) => {
      if (err) next(err);
    });
  });
  router.get(`${DOCS_PATH}/guides`, (_req, res) => html(res, guidesIndex()));
  router.get(`${DOCS_PATH}/guides/:slug`, (req, res, next) => {
    const page = guidePage(String(req.params.slug), originOf(req, opts));
    if (page === undefined) return next();
    html(res, page);
  });
  router.get(ERRORS_PAGE_PATH, (req, res) => html(res, guidePage('errors', originOf(req, opts)) as string));
  return router;
}
