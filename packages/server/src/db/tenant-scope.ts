import { Prisma } from '../generated/prisma/client.ts';
import type { Tx } from './client.ts';

/**
 * Models whose rows belong to one tenant: every model with a `tenantId` field, read from the
 * generated client, so a new model is scoped the day it is added. The idempotency records carry
 * a scope string (tenant or operator) in that column and are handled by their own layer.
 */
const UNSCOPED = new Set(['idempotencyRecord']);
const TENANT_MODELS = new Set(
  Object.values(Prisma.ModelName)
    .filter((name) => {
      const fields = (Prisma as unknown as Record<string, Record<string, string> | undefined>)[`${name}ScalarFieldEnum`];
      return fields !== undefined && 'tenantId' in fields;
    })
    .map((name) => name.charAt(0).toLowerCase() + name.slice(1))
    .filter((name) => !UNSCOPED.has(name)),
);

/** The tenant-scoped models (exported for the test that checks the list is complete). */
export const tenantModels: ReadonlySet<string> = TENANT_MODELS;

const WHERE_OPS = new Set([
  'findMany',
  'findFirst',
  'findFirstOrThrow',
  'findUnique',
  'findUniqueOrThrow',
  'count',
  'aggregate',
  'groupBy',
  'update',
  'updateMany',
  'delete',
  'deleteMany',
]);

type Args = Record<string, unknown> & { where?: Record<string, unknown>; data?: unknown };

function scopeArgs(op: string, args: Args | undefined, tenantId: string): Args {
  const a: Args = { ...(args ?? {}) };
  if (WHERE_OPS.has(op)) a.where = { ...(a.where ?? {}), tenantId };
  if (op === 'create') a.data = { ...(a.data as object), tenantId };
  if (op === 'createMany' || op === 'createManyAndReturn') {
    a.data = (Array.isArray(a.data) ? a.data : [a.data]).map((d) => ({ ...(d as object), tenantId }));
  }
  if (op === 'upsert') {
    a.where = { ...(a.where ?? {}), tenantId };
    a.create = { ...(a.create as object), tenantId };
  }
  return a;
}

/**
 * A view of the client (or of a transaction) in which every query on a tenant model carries the
 * tenant: reads and writes are filtered by it and created rows get it, whatever the caller passed.
 * Handlers only ever see this view, so no query can miss its tenant or reach another's rows.
 */
export function scopeToTenant<T extends Tx>(client: T, tenantId: string): T {
  return new Proxy(client, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || !TENANT_MODELS.has(prop)) return value;
      return new Proxy(value as object, {
        get(delegate, op, r) {
          const fn = Reflect.get(delegate, op, r);
          if (typeof op !== 'string' || typeof fn !== 'function') return fn;
          return (args?: Args) => fn.call(delegate, scopeArgs(op, args, tenantId));
        },
      });
    },
  }) as T;
}
