import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { HEADER_NAMES } from '@svc/contract';
import cors from 'cors';
import type { RequestHandler } from 'express';
import { answerClientErrors } from './client-error.ts';

/** HTTP settings every port of the service shares (config.ts reads them from the environment). */
export interface HttpHardening {
  /** Send `Strict-Transport-Security`: only where TLS terminates in front of the service. */
  hsts: boolean;
  /** Origins allowed to call from a browser (exact `scheme://host[:port]`); empty: CORS off. */
  corsOrigins: readonly string[];
  /** Time a client has to send its request line and headers (slowloris). */
  headersTimeoutMs: number;
  /** Time a client has to send its whole request, body included. */
  requestTimeoutMs: number;
  /** Largest request line plus headers, in bytes. */
  maxHeaderBytes: number;
}

export const DEFAULT_HARDENING: HttpHardening = {
  hsts: false,
  corsOrigins: [],
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxHeaderBytes: 16_384,
};

/**
 * The service answers JSON only and serves no page, so the policy forbids everything a browser
 * could do with a response: no scripts, no frames, no form targets, no referrer. The headers are
 * one fixed list set in one pass (this runs on every request).
 */
export function securityHeaders(h: Pick<HttpHardening, 'hsts'>): RequestHandler {
  const headers: [string, string][] = [
    ['X-Content-Type-Options', 'nosniff'],
    ['X-Frame-Options', 'DENY'],
    ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"],
    ['Referrer-Policy', 'no-referrer'],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
  ];
  if (h.hsts) headers.push(['Strict-Transport-Security', 'max-age=31536000; includeSubDomains']);
  return (_req, res, next) => {
    for (const [k, v] of headers) res.setHeader(k, v);
    next();
  };
}

/**
 * Cross-origin calls from browsers, off unless origins are configured: then only those origins get
 * `Access-Control-Allow-Origin`, preflights are answered before authentication (a browser sends
 * them without credentials), and the rate-limit, correlation and replay headers are readable.
 */
export function corsPolicy(h: Pick<HttpHardening, 'corsOrigins'>): RequestHandler | undefined {
  if (h.corsOrigins.length === 0) return undefined;
  return cors({
    origin: [...h.corsOrigins],
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', HEADER_NAMES.idempotencyKey, HEADER_NAMES.tenant, HEADER_NAMES.correlationId],
    exposedHeaders: [
      HEADER_NAMES.rateLimitLimit,
      HEADER_NAMES.rateLimitRemaining,
      HEADER_NAMES.rateLimitReset,
      HEADER_NAMES.retryAfter,
      HEADER_NAMES.correlationId,
      HEADER_NAMES.idempotentReplayed,
    ],
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
}

/**
 * An HTTP server with the limits a slow or oversized client meets: headers must arrive within
 * `headersTimeoutMs` however slowly they trickle in, the whole request within `requestTimeoutMs`,
 * and the request line plus headers within `maxHeaderBytes`. Node checks these on an interval, so
 * the interval is kept short enough for the limits to hold. Parser refusals answer in the envelope.
 */
export function createHardenedServer(
  listener: RequestListener,
  h: HttpHardening,
  classes?: { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse },
): Server {
  const server = createServer(
    {
      ...classes,
      maxHeaderSize: h.maxHeaderBytes,
      headersTimeout: h.headersTimeoutMs,
      requestTimeout: h.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1_000, h.headersTimeoutMs),
    },
    listener,
  );
  server.keepAliveTimeout = 65_000;
  answerClientErrors(server);
  return server;
}
