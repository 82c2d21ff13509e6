import { AsyncLocalStorage } from 'node:async_hooks';
import type { Prisma, Tx } from './types.ts';

/**
 * The response a request that claimed an Idempotency-Key owes its key (http/idempotency.ts), kept
 * for the request's async work. A hand-written handler's change is made in
 * `prisma.$transaction(async (tx) => ...)` and recorded there with recordChange: the transaction
 * that recorded a change also completes the key with the transaction's result, the body such a
 * handler answers with, so that the change and the stored response commit together and a process
 * that dies between the commit and the response leaves a retry to replay, not to run again. (Kit
 * routes complete the key in their own statement.) When the handler then answers with another body
 * or status, the layer stores that one after the fact, as before.
 */
export interface PendingResponse {
  scope: string;
  key: string;
  /** The route's one success status; undefined when it declares several (then nothing is stored in the transaction). */
  status: number | undefined;
  /** Inside a transaction opened by the handler, and whether it recorded a change. */
  inTx: boolean;
  changed: boolean;
  /** What a transaction stored, compared with the answer the handler finally sends. */
  stored?: { status: number; body: string };
  /**
   * Set when the answer is being sent: work the request started and left running (it inherits
   * this context) must not complete the key with its own result after that.
   */
  closed: boolean;
}

export const pendingResponse = new AsyncLocalStorage<PendingResponse>();

/** Called by recordChange: the current transaction makes a change. */
export function noteChange(): void {
  const p = pendingResponse.getStore();
  if (p?.inTx) p.changed = true;
}

const COMPLETE_SQL = `UPDATE "idempotency_records" SET "state" = 'completed', "status_code" = $3, "response_body" = $4::jsonb,
  "response_headers" = '{}'::jsonb WHERE "tenant_id" = $1 AND "key" = $2`;

/**
 * The client whose interactive transactions complete the request's pending response as above;
 * everything else is the client itself.
 */
export function completingTransactions(prisma: Prisma): Prisma {
  const transaction = prisma.$transaction.bind(prisma) as (...args: unknown[]) => Promise<unknown>;
  const wrapped = (arg: unknown, options?: unknown) => {
    const pending = pendingResponse.getStore();
    if (typeof arg !== 'function' || !pending || pending.closed || pending.inTx || pending.status === undefined) {
      return transaction(arg, options);
    }
    const fn = arg as (tx: Tx) => Promise<unknown>;
    return transaction(async (tx: Tx) => {
      pending.inTx = true;
      pending.changed = false;
      try {
        const result = await fn(tx);
        let body: string | undefined;
        try {
          body = JSON.stringify(result ?? null);
        } catch {}
        if (pending.changed && !pending.closed && body !== undefined && pending.status !== undefined) {
          await tx.$executeRawUnsafe(COMPLETE_SQL, pending.scope, pending.key, pending.status, body);
          pending.stored = { status: pending.status, body };
        }
        return result;
      } finally {
        pending.inTx = false;
      }
    }, options);
  };
  return new Proxy(prisma, {
    get(target, prop, receiver) {
      if (prop === '$transaction') return wrapped;
      return Reflect.get(target, prop, receiver);
    },
  });
}
