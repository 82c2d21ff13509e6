import { createHash } from 'node:crypto';
import { HEADER_NAMES, IDEMPOTENCY_KEY_MAX, type RouteMeta } from '@svc/contract';
import type { NextFunction, Request, Response } from 'express';
import type { Prisma } from '../db/client.ts';
import { ApiError } from '../errors.ts';
import { ctxOf } from './context.ts';

/** How long a first request may hold its key before a retry may take it over (a crashed process). */
const LOCK_MS = 60_000;
/** Response headers worth replaying with the stored body. */
const REPLAYED_HEADERS = ['location', 'content-type'];

export interface IdempotencyOptions {
  prisma: Prisma;
  ttlMs: number;
}

function fingerprintOf(req: Request): string {
  return createHash('sha256')
    .update(`${req.method}\n${req.path}\n${JSON.stringify(req.body ?? null)}`)
    .digest('hex');
}

/**
 * Idempotency-Key on POST. The first request with a key runs and its response is stored for the
 * TTL; a repeat gets the stored response with `Idempotent-Replayed: true`. A repeat while the
 * first is still running, or with another method, path or body, is a 409. Requests refused
 * before their handler ran (401, 403, 422, 429) are not stored, so they can be retried as is.
 * The key row is the lock: its primary key makes one of several concurrent requests the winner,
 * across any number of server processes.
 */
export function idempotency({ prisma, ttlMs }: IdempotencyOptions) {
  return async (req: Request, res: Response, next: NextFunction) => {
    const meta = (req as Request & { tsRestRoute: { metadata: RouteMeta } }).tsRestRoute.metadata;
    const key = req.get(HEADER_NAMES.idempotencyKey);
    if (req.method !== 'POST' || key === undefined || !meta.mutating) return next();
    try {
      if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
        throw new ApiError('bad_request', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters.`, [
          { field: 'Idempotency-Key', issue: 'invalid_format' },
        ]);
      }
      const ctx = ctxOf(res);
      const p = ctx.principal;
      const scope = p.kind === 'tenant' ? p.tenantId : p.kind === 'operator' ? `operator:${p.credentialId}` : undefined;
      if (!scope) return next();
      const fingerprint = fingerprintOf(req);
      const now = new Date();

      const claimed = await prisma.$executeRaw`
        INSERT INTO "idempotency_records" ("tenant_id", "key", "fingerprint", "method", "path", "state", "locked_until", "expires_at")
        VALUES (${scope}, ${key}, ${fingerprint}, ${req.method}, ${req.path}, 'in_flight', ${new Date(now.getTime() + LOCK_MS)}, ${new Date(now.getTime() + ttlMs)})
        ON CONFLICT ("tenant_id", "key") DO UPDATE SET
          "fingerprint" = EXCLUDED."fingerprint", "method" = EXCLUDED."method", "path" = EXCLUDED."path",
          "state" = 'in_flight', "status_code" = NULL, "response_body" = NULL, "response_headers" = NULL,
          "locked_until" = EXCLUDED."locked_until", "expires_at" = EXCLUDED."expires_at", "created_at" = now()
        WHERE "idempotency_records"."expires_at" <= ${now}
           OR ("idempotency_records"."state" = 'in_flight' AND "idempotency_records"."locked_until" <= ${now}
               AND "idempotency_records"."fingerprint" = EXCLUDED."fingerprint")`;

      if (claimed === 0) {
        const existing = await prisma.idempotencyRecord.findUnique({ where: { tenantId_key: { tenantId: scope, key } } });
        if (!existing) throw new ApiError('conflict', 'The Idempotency-Key is being released; retry.');
        if (existing.fingerprint !== fingerprint) {
          const field = existing.method !== req.method ? 'method' : existing.path !== req.path ? 'path' : 'body';
          throw new ApiError('conflict', `This Idempotency-Key was used with a different request ${field}.`, [
            { field: 'Idempotency-Key', issue: `different_${field}` },
          ]);
        }
        if (existing.state !== 'completed') {
          throw new ApiError('conflict', 'A request with this Idempotency-Key is still in flight; retry later.', [
            { field: 'Idempotency-Key', issue: 'in_flight' },
          ]);
        }
        for (const [h, v] of Object.entries((existing.responseHeaders ?? {}) as Record<string, string>)) res.setHeader(h, v);
        res.setHeader('Idempotent-Replayed', 'true');
        res.status(existing.statusCode ?? 200).json(existing.responseBody);
        return;
      }

      // Store the outcome before the response leaves, so a retry that follows at once finds it.
      const send = res.json.bind(res);
      res.json = (body: unknown) => {
        const status = res.statusCode;
        const store = ctx.handlerRan && status < 500;
        const headers = Object.fromEntries(REPLAYED_HEADERS.map((h) => [h, res.getHeader(h)]).filter(([, v]) => typeof v === 'string'));
        const done = store
          ? prisma.idempotencyRecord.update({
              where: { tenantId_key: { tenantId: scope, key } },
              data: { state: 'completed', statusCode: status, responseBody: body as object, responseHeaders: headers },
            })
          : prisma.idempotencyRecord.delete({ where: { tenantId_key: { tenantId: scope, key } } });
        done
          .catch((err: unknown) =>
            ctx.log.error('idempotency record update failed', { error: String(err), correlation_id: ctx.correlationId }),
          )
          .finally(() => send(body));
        return res;
      };
      next();
    } catch (err) {
      next(err);
    }
  };
}
