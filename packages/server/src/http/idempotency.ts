import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { HEADER_NAMES, IDEMPOTENCY_KEY_MAX, type RouteMeta } from '@svc/contract';
import type { NextFunction, Request, Response } from 'express';
import type { Database } from '../db/client.ts';
import { type PendingResponse, pendingResponse } from '../db/response-completion.ts';
import type { Params } from '../db/sql.ts';
import { ApiError } from '../errors.ts';
import { ctxOf } from './context.ts';

/** How long a first request may hold its key before a retry may take it over (a crashed process). */
const LOCK_MS = 60_000;
/** Response headers worth replaying with the stored body. */
const REPLAYED_HEADERS = ['location', 'content-type'];

export interface IdempotencyOptions {
  db: Database;
  ttlMs: number;
}

/**
 * Largest answer of a read-only POST stored for replay (its serialised JSON). A larger one (a big
 * export) is not stored: the key is released and a repeat runs the read again, which changes
 * nothing. Mutating routes store their answer whatever its size (with their change).
 */
export const REPLAY_BODY_MAX = 1024 * 1024;
/** Scope of the keys of anonymous callers (public routes); each row's key is bound to the client address. */
const ANONYMOUS_SCOPE = 'anonymous';

function requestText(req: Request): string {
  return `${req.method}\n${req.path}\n${JSON.stringify(req.body ?? null)}`;
}

function fingerprintOf(req: Request): string {
  return createHash('sha256').update(requestText(req)).digest('hex');
}

/**
 * An anonymous caller's key, as stored: nothing in the row names the caller, its address or the
 * key, and nothing in it opens the stored answer without the key the caller sent. The row's key is
 * a hash of the client address and the key (another address with the same key has its own row);
 * the fingerprint and the sealing key are HMACs under the caller's key, so a request body holding
 * an access code cannot be guessed back from the fingerprint.
 */
interface AnonymousKey {
  rowKey: string;
  fingerprint: string;
  seal: Buffer;
}

function anonymousKey(req: Request, key: string): AnonymousKey {
  const address = req.ip ?? req.socket.remoteAddress ?? '';
  return {
    rowKey: createHash('sha256').update(`idempotency\n${address}\n${key}`).digest('hex'),
    fingerprint: createHmac('sha256', key)
      .update(`fingerprint\n${requestText(req)}`)
      .digest('hex'),
    seal: createHmac('sha256', key).update(`seal\n${address}`).digest(),
  };
}

/** AES-256-GCM under the caller's key: the answer of a public route (an access code) is stored sealed. */
function sealBody(seal: Buffer, body: unknown): { sealed: string } {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', seal, iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(body ?? null), 'utf8'), cipher.final()]);
  return { sealed: Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64') };
}

function openBody(seal: Buffer, stored: unknown): { ok: true; body: unknown } | { ok: false } {
  const text = (stored as { sealed?: unknown } | null)?.sealed;
  if (typeof text !== 'string') return { ok: false };
  try {
    const raw = Buffer.from(text, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', seal, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return { ok: true, body: JSON.parse(plain) };
  } catch {
    return { ok: false };
  }
}

/**
 * Idempotency-Key on every POST (mutating or read-only, with a tenant key, an operator credential
 * or none). The first request with a key runs and its response is stored for the TTL; a repeat
 * gets the stored response with `Idempotent-Replayed: true`. A repeat while the
 * first is still running, or with another method, path or body, is a 409. Requests refused
 * before their handler ran (401, 403, 422, 429) are not stored, so they can be retried as is.
 * The key row is the lock: its primary key makes one of several concurrent requests the winner,
 * across any number of server processes.
 */
/**
 * Claims the key (a new row, or one whose TTL ran out, or one a crashed first request left locked)
 * and, in the same round trip, reads the row as it was before: when the claim fails, that is the
 * request to compare with or replay.
 */
const CLAIM_SQL = `
  WITH claim AS (
    INSERT INTO "idempotency_records" ("tenant_id", "key", "fingerprint", "method", "path", "state", "locked_until", "expires_at")
    VALUES ($1, $2, $3, $4, $5, 'in_flight', ($6::timestamptz AT TIME ZONE 'UTC'), ($7::timestamptz AT TIME ZONE 'UTC'))
    ON CONFLICT ("tenant_id", "key") DO UPDATE SET
      "fingerprint" = EXCLUDED."fingerprint", "method" = EXCLUDED."method", "path" = EXCLUDED."path",
      "state" = 'in_flight', "status_code" = NULL, "response_body" = NULL, "response_headers" = NULL,
      "locked_until" = EXCLUDED."locked_until", "expires_at" = EXCLUDED."expires_at", "created_at" = now()
    WHERE "idempotency_records"."expires_at" <= ($8::timestamptz AT TIME ZONE 'UTC')
       OR ("idempotency_records"."state" = 'in_flight' AND "idempotency_records"."locked_until" <= ($8::timestamptz AT TIME ZONE 'UTC')
           AND "idempotency_records"."fingerprint" = EXCLUDED."fingerprint")
    RETURNING 1)
  SELECT (SELECT count(*) FROM claim)::int AS "claimed", r."fingerprint", r."method", r."path", r."state",
         r."status_code" AS "statusCode", r."response_body" AS "responseBody", r."response_headers" AS "responseHeaders"
  FROM (SELECT 1) one LEFT JOIN "idempotency_records" r ON r."tenant_id" = $1 AND r."key" = $2`;

const CLAIM_READ_SQL = `
  SELECT 0 AS "claimed", "fingerprint", "method", "path", "state", "status_code" AS "statusCode",
         "response_body" AS "responseBody", "response_headers" AS "responseHeaders"
  FROM "idempotency_records" WHERE "tenant_id" = $1 AND "key" = $2`;

interface Claim {
  claimed: number;
  fingerprint: string | null;
  method: string | null;
  path: string | null;
  state: string | null;
  statusCode: number | null;
  responseBody: unknown;
  responseHeaders: Record<string, string> | null;
}

export function idempotency({ db, ttlMs }: IdempotencyOptions) {
  const faultsOn = process.env.SVC_FAULTS === '1';
  return async (req: Request, res: Response, next: NextFunction) => {
    const route = (req as Request & { tsRestRoute: { metadata: RouteMeta; responses: Record<string, unknown> } }).tsRestRoute;
    const meta = route.metadata;
    const key = req.get(HEADER_NAMES.idempotencyKey);
    if (req.method !== 'POST' || key === undefined) return next();
    try {
      // Checked on every POST, also those that change nothing (queries, exports): the header means
      // the same everywhere, and the document states its format once.
      if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
        throw new ApiError('bad_request', `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} visible ASCII characters.`, [
          { field: 'Idempotency-Key', issue: 'invalid_format' },
        ]);
      }
      // Every POST honours the key, those that only read (queries, exports, plans) as well: a
      // repeat replays the first answer and does not run again.
      const ctx = ctxOf(res);
      const p = ctx.principal;
      // Public routes (no credential): the scope is the client address, and the stored row is
      // keyed and sealed so that only the caller holding the key can have the answer replayed.
      const anon = p.kind === 'anonymous' ? anonymousKey(req, key) : undefined;
      const scope = p.kind === 'tenant' ? p.tenantId : p.kind === 'operator' ? `operator:${p.credentialId}` : ANONYMOUS_SCOPE;
      const rowKey = anon ? anon.rowKey : key;
      const fingerprint = anon ? anon.fingerprint : fingerprintOf(req);
      const now = new Date();

      const [claim] = await db.sql.query<Claim>(
        CLAIM_SQL,
        [
          scope,
          rowKey,
          fingerprint,
          req.method,
          req.path,
          new Date(now.getTime() + LOCK_MS).toISOString(),
          new Date(now.getTime() + ttlMs).toISOString(),
          now.toISOString(),
        ],
        { prepare: true },
      );

      if (!claim?.claimed) {
        // A concurrent first request may have inserted the row after this statement's snapshot
        // was taken: then read it now (rare; the common conflict is answered from the claim).
        const existing = claim?.fingerprint ? claim : (await db.sql.query<Claim>(CLAIM_READ_SQL, [scope, rowKey]))[0];
        if (!existing?.fingerprint) throw new ApiError('conflict', 'The Idempotency-Key is being released; retry.');
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
        let replayed = existing.responseBody;
        if (anon) {
          const opened = openBody(anon.seal, existing.responseBody);
          if (!opened.ok) throw new ApiError('conflict', 'The Idempotency-Key is being released; retry.');
          replayed = opened.body;
        }
        for (const [h, v] of Object.entries((existing.responseHeaders ?? {}) as Record<string, string>)) res.setHeader(h, v);
        res.setHeader('Idempotent-Replayed', 'true');
        res.status(existing.statusCode ?? 200).json(replayed);
        return;
      }

      // Store the outcome before the response leaves, so a retry that follows at once finds it.
      const claimed = { scope, key: rowKey, stored: false };
      // An anonymous caller's answer is stored sealed, after the handler: never in clear by the
      // handler's transaction (kit routes and recordChange complete only a claim set here).
      if (!anon) ctx.idempotency = claimed;
      const successes = Object.keys(route.responses).filter((code) => /^2\d\d$/.test(code));
      const pending: PendingResponse = {
        scope,
        key: rowKey,
        status: !anon && successes.length === 1 ? Number(successes[0]) : undefined,
        inTx: false,
        changed: false,
        closed: false,
      };
      const send = res.json.bind(res);
      res.json = (body: unknown) => {
        // Fault injection for the tests (never set in production): the process dies after the
        // handler's commit and before its answer leaves.
        if (faultsOn && res.req.get('x-svc-fault') === 'exit-after-commit') process.exit(137);
        pending.closed = true;
        if (claimed.stored) return send(body);
        const status = res.statusCode;
        // The handler's transaction already stored this very answer with its change.
        if (pending.stored && pending.stored.status === status && pending.stored.body === JSON.stringify(body ?? null)) {
          claimed.stored = true;
          return send(body);
        }
        if (pending.stored) {
          // The handler answered with something else than its transaction's result: stored below,
          // after the commit, so a crash in between would replay the transaction's result.
          ctx.log.debug('idempotent answer differs from the transaction result', { path: req.path, status });
        }
        const text = JSON.stringify(anon ? sealBody(anon.seal, body) : (body ?? null));
        // A read-only answer over the cap is not kept (module comment of REPLAY_BODY_MAX).
        const tooLarge = !meta.mutating && Buffer.byteLength(text) > REPLAY_BODY_MAX;
        if (tooLarge) ctx.log.debug('idempotent answer too large to store', { path: req.path, bytes: Buffer.byteLength(text) });
        const store = ctx.handlerRan && status < 500 && !tooLarge;
        const headers = Object.fromEntries(REPLAYED_HEADERS.map((h) => [h, res.getHeader(h)]).filter(([, v]) => typeof v === 'string'));
        const done = store
          ? db.sql.query(
              `UPDATE "idempotency_records" SET "state" = 'completed', "status_code" = $3, "response_body" = $4::jsonb,
                 "response_headers" = $5::jsonb WHERE "tenant_id" = $1 AND "key" = $2`,
              [scope, rowKey, status, text, JSON.stringify(headers)],
              { prepare: true },
            )
          : db.sql.query(`DELETE FROM "idempotency_records" WHERE "tenant_id" = $1 AND "key" = $2`, [scope, rowKey]);
        done
          .catch((err: unknown) =>
            ctx.log.error('idempotency record update failed', { error: String(err), correlation_id: ctx.correlationId }),
          )
          .finally(() => send(body));
        return res;
      };
      // An answer that left without res.json (none does today) must not hold the key until the
      // lock runs out: the key is released.
      res.on('finish', () => {
        if (pending.closed) return;
        db.sql
          .query(`DELETE FROM "idempotency_records" WHERE "tenant_id" = $1 AND "key" = $2 AND "state" = 'in_flight'`, [scope, rowKey])
          .catch((err: unknown) => ctx.log.error('idempotency record release failed', { error: String(err) }));
      });
      pendingResponse.run(pending, next);
    } catch (err) {
      next(err);
    }
  };
}

/**
 * For a handler that writes in its own transaction: the CTE that completes this request's
 * idempotency record with its response, to add to the transaction's last statement, so that the
 * change and the stored response commit together (and one round trip is saved). Undefined when the
 * request carries no key. Call `idempotencyStored` once the transaction has committed.
 */
export function idempotencyCompletion(res: Response, status: number, body: unknown): ((p: Params) => string) | undefined {
  const claim = ctxOf(res).idempotency;
  if (!claim) return undefined;
  return (p) =>
    `idem AS (UPDATE "idempotency_records" SET "state" = 'completed', "status_code" = ${p.add(status)},
       "response_body" = ${p.add(JSON.stringify(body ?? null))}::jsonb, "response_headers" = '{}'::jsonb
     WHERE "tenant_id" = ${p.add(claim.scope)} AND "key" = ${p.add(claim.key)})`;
}

/** The handler's transaction, which completed the idempotency record, has committed. */
export function idempotencyStored(res: Response): void {
  const claim = ctxOf(res).idempotency;
  if (claim) claim.stored = true;
}
