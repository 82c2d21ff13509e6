import { keyField, type Setting, unsetRecord } from '@svc/contract';
import type { Response } from 'express';
import type { z } from 'zod';
import type { Database, Tx } from './db/client.ts';
import { keysetList } from './db/pagination.ts';
import { type Row, tableOf } from './db/rows.ts';
import { scopeToTenant } from './db/tenant-scope.ts';
import { ApiError } from './errors.ts';
import { derivedRender, type ModelName } from './kit.ts';
import { type Actor, recordChange } from './platform/ledger/changes.ts';
import { lockKey } from './platform/records.ts';
import { actor } from './rails/deps.ts';

/**
 * The server side of the setting kit (contract: platform/setting.ts): a record one `PUT` replaces,
 * one per tenant, per calling API key or per path parameter, in a Prisma model whose rows hold the
 * tenant and the key. The `PUT` runs in one transaction: writers of one record queue on a lock of
 * its key, the store's `prepare` checks the body and gives the row's fields, the row is created or
 * replaced, and the change is audited (with what it replaced) and emitted in the same transaction.
 */

type Where = Record<string, unknown>;
type RecordOf<S extends Setting> = z.infer<S['spec']['record']>;
type BodyOf<S extends Setting> = z.infer<S['spec']['body']>;

/** What a setting's `prepare` gets. */
export interface SettingWrite<S extends Setting> {
  /** The write's transaction, scoped to the tenant. */
  db: Tx;
  /** The same transaction without the tenant scope (a slug unique across tenants). */
  tx: Tx;
  who: Actor;
  body: BodyOf<S>;
  /** The record's key: the path parameter's value or the calling key; the tenant's id for a tenant's one. */
  key: string;
  /** The row before the change, locked until the commit; null the first time. */
  before: Row | null;
  now: Date;
}

export interface SettingStore<S extends Setting> {
  readonly model: ModelName;
  /** Row to record; derived from the record schema (as the resource kit's) when absent. */
  readonly render?: (row: never) => RecordOf<S>;
  /** With a derived renderer: the record's fields that are not the row's of the same name. */
  readonly computed?: { readonly [K in keyof RecordOf<S>]?: (row: never) => RecordOf<S>[K] };
  /** The row's fields from the body: domain checks (422, 409) first; the kit adds the tenant, the key and the clocks. */
  readonly prepare: (w: SettingWrite<S>) => Promise<Where> | Where;
  /** A new row's id, when the model has one the database does not give. */
  readonly newId?: () => string;
  /** The audit event's `data`, from the row before and the record after. */
  readonly auditData: (ctx: { before: Row | null; record: RecordOf<S>; key: string; body: BodyOf<S> }) => Record<string, unknown>;
  /** The audit event's resource id: the row's id when absent. */
  readonly resourceId?: (row: Row, key: string) => string;
}

interface SettingDelegate {
  findFirst(args: unknown): Promise<Row | null>;
  findMany(args: never): Promise<Row[]>;
  create(args: unknown): Promise<Row>;
  updateMany(args: unknown): Promise<unknown>;
}

/** The handlers of a setting's routes (`get`, `put`, and a keyed setting's `list`). */
export function serveSetting<S extends Setting>(database: Database, declared: S, store: SettingStore<S>) {
  const { prisma } = database;
  const { spec } = declared;
  const table = tableOf(prisma, store.model);
  const key = spec.key;
  const param = key && 'param' in key ? key.param : undefined;
  const field = keyField(spec);
  for (const f of ['tenantId', 'updatedAt', ...(field ? [field] : [])]) {
    if (!table.byName.has(f)) throw new Error(`${declared.object}: model ${table.model} has no ${f} field`);
  }
  const stamps = table.byName.has('createdAt');
  const render = (store.render ?? derivedRender(declared, table, store.computed ?? {})) as (row: Row) => RecordOf<S>;
  const delegate = (db: Tx) => (db as unknown as Record<string, SettingDelegate>)[store.model] as SettingDelegate;
  const keyOf = (res: Response, params: Record<string, string> | undefined) =>
    param ? String(params?.[param]) : key ? actor(res).actor : actor(res).tenantId;
  const where = (k: string): Where => (field ? { [field]: k } : {});
  const absent = (k: string) => new ApiError('not_found', `No ${spec.label} ${param ? `is set for ${param} ${k}` : 'is set'}.`);

  const handlers: Record<string, unknown> = {};
  handlers.get = async ({ params, res }: { params?: Record<string, string>; res: Response }) => {
    const who = actor(res);
    const k = keyOf(res, params);
    const row = await delegate(scopeToTenant(prisma, who.tenantId)).findFirst({ where: where(k) });
    if (row) return { status: 200, body: render(row) };
    if (spec.unset === 'not_found') throw absent(k);
    return { status: 200, body: unsetRecord(declared.object, spec, k) };
  };
  handlers.put = async ({ params, body, res }: { params?: Record<string, string>; body: BodyOf<S>; res: Response }) => {
    const who = actor(res);
    const k = keyOf(res, params);
    // Prisma's transaction completes the idempotent response with the record it returns (db/response-completion.ts).
    const record = await prisma.$transaction(async (tx) => {
      // Writers of one record queue here: the first creates the row, the next replace it.
      await lockKey(tx, `${declared.object}:${who.tenantId}:${k}`);
      const db = scopeToTenant(tx, who.tenantId);
      const model = delegate(db);
      const before = await model.findFirst({ where: where(k) });
      const now = new Date();
      const data = await store.prepare({ db, tx, who, body, key: k, before, now });
      // Always forward, even within the millisecond of the previous change (clients compare it).
      const updatedAt = before ? new Date(Math.max(now.getTime(), (before.updatedAt as Date).getTime() + 1)) : now;
      if (before) await model.updateMany({ where: where(k), data: { ...data, updatedAt } });
      else {
        await model.create({
          data: {
            ...data,
            ...(store.newId ? { id: store.newId() } : {}),
            tenantId: who.tenantId,
            ...where(k),
            ...(stamps ? { createdAt: now } : {}),
            updatedAt,
          },
        });
      }
      const row = (await model.findFirst({ where: where(k) })) as Row;
      const out = render(row);
      await recordChange(tx, {
        ...who,
        action: declared.action,
        resourceType: declared.object,
        resourceId: store.resourceId ? store.resourceId(row, k) : String(row.id),
        data: store.auditData({ before, record: out, key: k, body }),
        resource: out as Record<string, unknown>,
      });
      return out;
    });
    return { status: 200, body: record };
  };
  if (spec.list) {
    handlers.list = async ({ query, res }: { query: { limit: number; cursor?: string }; res: Response }) => {
      const page = await keysetList(delegate(scopeToTenant(prisma, actor(res).tenantId)), query, { render: (row: Row) => render(row) });
      return { status: 200, body: page };
    };
  }
  return handlers as {
    // biome-ignore lint/suspicious/noExplicitAny: ts-rest checks each key's implementation against the contract route.
    [K in keyof (S extends { routes: infer R } ? R : never)]: any;
  };
}
