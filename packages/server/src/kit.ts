import { type Resource, type TransitionSpec, withArticle } from '@svc/contract';
import type { Response } from 'express';
import type { z } from 'zod';
import type { Database, Tx } from './db/client.ts';
import { keysetList } from './db/pagination.ts';
import { findRow, insertStatement, type Row, rowFromJson, type Table, tableOf, updateRowIf } from './db/rows.ts';
import { type Sql, sqlOf } from './db/sql.ts';
import { scopeToTenant } from './db/tenant-scope.ts';
import { ApiError, stateConflict } from './errors.ts';
import { ctxOf, type TenantPrincipal } from './http/context.ts';
import { idempotencyCompletion, idempotencyStored } from './http/idempotency.ts';
import { newId } from './ids.ts';
import { type ActingPerson, actingPerson, type PersonActor, personAsActor } from './platform/acting-person.ts';
import {
  type Actor,
  appendingTransaction,
  type ChangeOptions,
  HEAD_PARAMS,
  recordChange,
  recordRowChange,
} from './platform/ledger/changes.ts';
import { iso } from './platform/render.ts';
import { actor, personActor, tenantOf } from './rails/deps.ts';

/**
 * The server side of the resource kit: the routes a `resource({...})` declaration generates,
 * served over a Prisma model. Lists go through the Prisma delegate, scoped to the tenant; get,
 * create and transitions (the per-request hot paths) run as plain SQL on the model's table
 * (db/rows.ts), each write in one transaction with its audit event, event-index row and outbox
 * rows. What is particular to a resource (domain checks, computed fields, its row-to-record
 * mapping) plugs in as functions. Irregular routes stay hand-written beside it.
 */

type Where = Record<string, unknown>;

/** The delegate operation the kit's list uses; every Prisma model delegate has it. */
interface Delegate {
  findMany(args: never): Promise<Row[]>;
}

export type ModelName = {
  [K in keyof Tx]: Tx[K] extends { findMany: unknown; updateMany: unknown } ? K : never;
}[keyof Tx] &
  string;

export interface CreateInput<Body> {
  /** The client scoped to the tenant, for domain checks (they run before the write transaction opens). */
  db: Tx;
  /** The client without the tenant scope, for the shared catalogue (dictionaries, controls). */
  shared: Tx;
  /** Statements without the ORM (a hot path's reads), on the connection of `db`'s transaction when there is one. */
  sql: Sql;
  who: PersonActor;
  body: Body;
  /** The new record's id, with the resource's prefix. */
  id: string;
  /** A nested collection's parent (the path's `:id`), found in the tenant; the row's parent field is set by the kit. */
  parentId?: string | undefined;
}

export interface Store<R extends Resource> {
  /** Prisma model (delegate name) that holds the records. */
  readonly model: ModelName;
  /**
   * A nested collection's parent (ResourceSpec.parent): the model that holds it. The kit finds it
   * in the tenant for a list (404 otherwise) and locks it in a create's transaction, where the
   * declared `createIn` states are checked, so a parent that leaves them first makes the create a 409.
   * `admit` is the parent's own policy beyond the route's permission (the caller's role in a
   * workspace): it refuses with an ApiError, after the 404 and before the state's 409, on the row
   * as read for a list and as locked for a create.
   */
  readonly parent?: {
    readonly model: ModelName;
    readonly admit?: (ctx: { tx: Tx; who: PersonActor; caller: TenantPrincipal; parent: never; op: 'list' | 'create' }) => Promise<void>;
  };
  /**
   * The records' own policy beyond the route's permission (the caller's role in a workspace): it
   * refuses with an ApiError on a get (`op: 'get'`), a transition or an edit (`op`: its verb),
   * after the 404 and before the state's 409, on the row as read for a get and as locked for a
   * change. `visible` is its side of the list: the where-clause of the records the caller may
   * list, or undefined for all of them.
   */
  readonly admit?: (ctx: { tx: Tx; who: PersonActor; caller: TenantPrincipal; row: never; op: string }) => Promise<void>;
  readonly visible?: (ctx: { tx: Tx; who: PersonActor; caller: TenantPrincipal }) => Promise<Where | undefined>;
  /**
   * Row to API record. When absent, derived from the record schema: each field read from the
   * model's field of the same name (a DateTime as an ISO 8601 string), `object` the record's
   * constant, and the fields the row does not hold from `computed`. A record field that is neither
   * a model field nor computed fails when the server starts, naming it.
   */
  readonly render?: (row: never, ctx: never) => z.infer<R['spec']['record']>;
  /**
   * With a derived renderer: the record's fields computed from the row (a renamed column, a count, a
   * parsed value) and its RenderContext: a nested collection's parent row (a bid's total at its
   * RFP's current weights), and what `related` read for the rows rendered together.
   */
  readonly computed?: {
    readonly [K in keyof z.infer<R['spec']['record']>]?: (row: never, ctx: never) => z.infer<R['spec']['record']>[K];
  };
  /**
   * The rows of other tables the records show (an email channel's recipients with their
   * confirmation state), read once for the rows rendered together: a list's page, a record got,
   * created or moved (in the change's transaction, so a create sees the rows its `prepare` wrote).
   * Computed fields receive the result as `related`.
   */
  readonly related?: (ctx: { db: Tx; rows: readonly never[] }) => Promise<unknown>;
  /** Where-clause of a filter whose model field differs from its query key. */
  readonly filterWhere?: { readonly [K in keyof NonNullable<R['spec']['filters']>]?: (value: string) => Where };
  /**
   * Domain checks and computed fields: returns the row's data. The kit sets `id`, `tenantId` and,
   * when the model has them, `createdAt` and `updatedAt` (one clock for both).
   */
  readonly create?: (input: CreateInput<BodyOf<R>>) => Promise<Where>;
  /** The audit event's `data` of a create; the record's id only when absent. */
  readonly auditData?: (record: z.infer<R['spec']['record']>) => Record<string, unknown>;
  /**
   * The create's webhook event data when its registered type says more than the record (a
   * completion's `principal`, the person it is about); the record when absent.
   */
  readonly eventData?: (record: z.infer<R['spec']['record']>) => Record<string, unknown>;
  /**
   * In the create's transaction, before the row is written: what must be read there to hold until
   * the commit (a parent row, locked), the row's fields computed from it (set on `data`), and
   * effects on other records that the row depends on. Returns what the audit event says besides
   * `auditData` (a fact of another record before the change).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a step that only sets fields is an async function returning nothing.
  readonly prepare?: (ctx: PrepareContext<BodyOf<R>>) => Promise<Record<string, unknown> | void>;
  /**
   * In the create's transaction, after the row and its change are recorded: effects on other
   * records (a parent's computed score, children given inline), which may record changes of their
   * own. `prepared` is what `prepare` returned (the ids it gave the children the audit event names).
   */
  readonly afterCreate?: (ctx: WriteContext<RecordOf<R>> & { body: BodyOf<R>; prepared: Record<string, unknown> }) => Promise<unknown>;
  /**
   * What a transition does besides moving the status: the fields it changes, from the current row
   * (the function form), or a step with domain checks and effects (see TransitionStep).
   */
  readonly transitions?: {
    readonly [V in keyof NonNullable<R['spec']['transitions']>]?:
      | ((row: never) => Where)
      | TransitionStep<RecordOf<R>, TransitionBodyOf<NonNullable<R['spec']['transitions']>[V]>>;
  };
}

type RecordOf<R extends Resource> = z.infer<R['spec']['record']>;
/** The body a transition receives: its own schema's, or the optional `{ reason }`. */
type TransitionBodyOf<T> = T extends { body: infer B extends z.ZodType } ? z.infer<B> : { reason?: string } | undefined;

/** What a renderer gets besides the row: a nested collection's parent, and what the store's `related` read. */
export interface RenderContext<Parent = Row, Related = unknown> {
  parent: Parent;
  related: Related;
}

/** What a create's `prepare` step gets: the row's data so far (it may add fields), and the change's clock. */
export interface PrepareContext<Body> {
  tx: Tx;
  who: PersonActor;
  body: Body;
  /** The new record's id. */
  id: string;
  /** A nested collection's parent, locked: the row as it stands until the commit. */
  parent: Row | undefined;
  /** For a create made by a person (`create.person`): that person, the one the key is bound to. */
  person: ActingPerson | undefined;
  /** The credential of the request (its key, role and person); undefined for a create called outside HTTP (createOf). */
  caller: TenantPrincipal | undefined;
  data: Where;
  now: Date;
}

/** What a hook gets: the transaction (Prisma's, scoped by the hook itself) and who writes. */
export interface WriteContext<Rec> {
  tx: Tx;
  who: PersonActor;
  record: Rec;
}

/**
 * A transition with domain work. The kit reads the current row locked (FOR UPDATE), so the checks
 * and the fields computed from it hold until the commit: two renewals at once extend a term twice.
 */
export interface TransitionStep<Rec, Body = unknown> {
  /** Fields changed besides the status, from the current row, the transition's clock, its body and who makes it. */
  readonly set?: (row: never, now: Date, body: Body, who: PersonActor) => Where;
  /**
   * Checks beyond the `from` states, on the locked current row: throw an ApiError to refuse. It may
   * also make the changes the transition implies for other records (a risk's residual when one of
   * its treatments is implemented) and return what the audit event says of them. `now` is the
   * change's clock, the one `set` gets.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a guard that only checks is an async function returning nothing.
  readonly guard?: (ctx: { tx: Tx; who: PersonActor; row: never; body: Body; now: Date }) => Promise<Record<string, unknown> | void>;
  /** The audit event's `data` besides `from`, `to` and `reason`. */
  readonly auditData?: (record: Rec, current: never, body: Body) => Record<string, unknown>;
  /** Effects on other records after the change is recorded, in the same transaction. */
  readonly after?: (ctx: WriteContext<Rec>) => Promise<unknown>;
}

type BodyOf<R extends Resource> = NonNullable<R['spec']['create']> extends { body: infer B extends z.ZodType } ? z.infer<B> : never;

/**
 * One implementation per route key of the resource: a key the kit does not serve fails to compile
 * at `s.router(...)`. The implementations are checked by the kit's own code, not per key.
 */
type Handlers<R extends Resource> = {
  // biome-ignore lint/suspicious/noExplicitAny: ts-rest checks each key's implementation against the contract route with its common responses.
  [K in keyof R['routes']]: any;
};

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * The options of a change whose statement ends the kit's own transaction (a request's create or
 * transition, outside Prisma's): it stores the request's idempotent response, the record as it
 * stands when the statement is built, and carries the COMMIT (`last`).
 */
function endsOwnTransaction(res: Response, status: number, record: () => unknown): ChangeOptions {
  return {
    also: (p) => {
      const completion = idempotencyCompletion(res, status, record())?.(p);
      return completion === undefined ? [] : [completion];
    },
    last: true,
  };
}

function delegateOf(client: Tx, model: string): Delegate {
  return (client as unknown as Record<string, Delegate>)[model] as Delegate;
}

/** A 404 in the envelope, the same for an absent id and another tenant's. */
export function missing(resource: Resource, id: string): ApiError {
  return new ApiError('not_found', `${capitalised(resource.spec.label.one)} ${id} was not found.`);
}

/**
 * The renderer of a store without one (Store.render): the record schema's fields, in its order,
 * from the row's fields of the same name or from `computed`; checked against the model once.
 */
export function derivedRender(
  resource: { readonly object: string; readonly spec: { readonly record: z.ZodObject } },
  table: Table,
  computed: Readonly<Record<string, ((row: never, ctx: never) => unknown) | undefined>>,
): (row: Row, ctx: Partial<RenderContext>) => Record<string, unknown> {
  const shape = resource.spec.record.shape as Record<string, z.ZodType>;
  const object = resource.object;
  const fields = Object.keys(shape).map((key) => {
    const compute = computed[key] as ((row: Row, ctx: Partial<RenderContext>) => unknown) | undefined;
    if (compute) return { key, compute };
    if (key === 'object') return { key, compute: () => object };
    const field = table.byName.get(key);
    if (!field) throw new Error(`${object}: model ${table.model} has no field ${key}; give it in the store's computed`);
    if (field.type !== 'DateTime') return { key, compute: (row: Row) => row[key] };
    return { key, compute: (row: Row) => (row[key] === null || row[key] === undefined ? null : iso(row[key] as Date)) };
  });
  for (const key of Object.keys(computed)) {
    if (!(key in shape)) throw new Error(`${object}: computed field ${key} is not a field of the record`);
  }
  return (row, ctx) => {
    const out: Record<string, unknown> = {};
    for (const f of fields) out[f.key] = f.compute(row, ctx);
    return out;
  };
}

/**
 * A nested collection's parent as the kit reads it: found in the tenant (404 naming it otherwise),
 * and for a create locked, in one of the declared `createIn` states (409 naming its state otherwise).
 */
function nestedParent(prisma: Database['prisma'], resource: Resource, store: Store<Resource>, table: Table) {
  const parent = resource.spec.parent;
  if (!parent) return undefined;
  if (!store.parent) throw new Error(`${resource.object}: the store of a nested collection names its parent's model`);
  if (!table.byName.has(parent.field)) throw new Error(`${resource.object}: model ${table.model} has no field ${parent.field}`);
  const parentTable = tableOf(prisma, store.parent.model);
  const createIn = parent.createIn;
  if (createIn && !parentTable.byName.has(createIn.field)) throw new Error(`${resource.object}: the parent model has no ${createIn.field}`);
  const absent = (id: string) => new ApiError('not_found', `${capitalised(parent.label)} ${id} was not found.`);
  const admit = store.parent.admit as
    | ((ctx: { tx: Tx; who: PersonActor; caller: TenantPrincipal; parent: Row; op: 'list' | 'create' }) => Promise<void>)
    | undefined;
  return {
    field: parent.field,
    /** Whether the kit must hold a Prisma client for the parent's policy. */
    admits: admit !== undefined,
    find: async (sql: Sql, tx: Tx, who: PersonActor, caller: TenantPrincipal, id: string): Promise<Row> => {
      const row = await findRow(sql, parentTable, caller.tenantId, id);
      if (!row) throw absent(id);
      await admit?.({ tx, who, caller, parent: row, op: 'list' });
      return row;
    },
    lock: async (sql: Sql, tx: Tx | undefined, who: PersonActor, caller: TenantPrincipal | undefined, id: string): Promise<Row> => {
      const row = await findRow(sql, parentTable, who.tenantId, id, { forUpdate: true });
      if (!row) throw absent(id);
      if (admit) {
        if (!tx || !caller) throw new Error(`${resource.object}: a create under a parent with a policy needs the request's caller`);
        await admit({ tx, who, caller, parent: row, op: 'create' });
      }
      if (createIn) {
        const state = String(row[createIn.field]);
        if (!createIn.states.includes(state)) {
          throw stateConflict(
            capitalised(parent.label),
            id,
            state,
            `adding ${withArticle(resource.spec.label.one)}`,
            createIn.states,
            createIn.field,
          );
        }
      }
      return row;
    },
  };
}

/** Handlers already built per database, resource and store: a rail that also needs another rail's create gets the same ones. */
const built = new WeakMap<Database, WeakMap<Resource, WeakMap<object, unknown>>>();

/**
 * The handlers of every route the resource declares, for `s.router(contract.<rail>, {...})`. Serving
 * the same resource with the same store again (`createOf(serveResource(...))` in another rail)
 * returns the handlers built the first time.
 */
export function serveResource<R extends Resource>(database: Database, resource: R, store: Store<R>): Handlers<R> {
  const byResource = built.get(database) ?? new WeakMap<Resource, WeakMap<object, unknown>>();
  built.set(database, byResource);
  const byStore = byResource.get(resource) ?? new WeakMap<object, unknown>();
  byResource.set(resource, byStore);
  const earlier = byStore.get(store) as Handlers<R> | undefined;
  if (earlier) return earlier;
  const handlers = buildHandlers(database, resource, store);
  byStore.set(store, handlers);
  return handlers;
}

function buildHandlers<R extends Resource>(database: Database, resource: R, store: Store<R>): Handlers<R> {
  const { prisma } = database;
  const { spec } = resource;
  const table = tableOf(prisma, store.model);
  for (const f of ['id', 'tenantId', ...(spec.statusField ? [spec.statusField as string] : [])]) {
    if (!table.byName.has(f)) throw new Error(`${resource.object}: model ${table.model} has no ${f} field`);
  }
  const stamps = ['createdAt', 'updatedAt'].filter((f) => table.byName.get(f)?.type === 'DateTime');
  const touches = table.byName.get('updatedAt')?.type === 'DateTime';
  const render = (store.render ?? derivedRender(resource, table, store.computed ?? {})) as unknown as (
    row: Row,
    ctx: Partial<RenderContext>,
  ) => Record<string, unknown> & { id: string };
  const related = store.related as ((ctx: { db: Tx; rows: readonly Row[] }) => Promise<unknown>) | undefined;
  /** Rows rendered together: what `related` reads is read once for all of them. */
  const renderAll = async (db: Tx, rows: readonly Row[], parent?: Row) => {
    const ctx = { parent, related: related && rows.length > 0 ? await related({ db, rows }) : undefined };
    return rows.map((row) => render(row, ctx));
  };
  const scoped = (res: Response) => {
    const p = ctxOf(res).principal;
    if (p.kind !== 'tenant') throw new ApiError('forbidden', 'This route needs a tenant API key.');
    return scopeToTenant(prisma, p.tenantId);
  };
  const filters = Object.keys(spec.filters ?? {});
  const handlers: Record<string, unknown> = {};
  const nested = nestedParent(prisma, resource, store as Store<Resource>, table);
  // A variant (a Slack channel among the channels): its rows are those whose `field` is `value`.
  const variant = spec.variant;
  if (variant && !table.byName.has(variant.field))
    throw new Error(`${resource.object}: model ${table.model} has no ${variant.field} field`);
  const ofVariant = (row: Row | undefined) => (row && variant && row[variant.field] !== variant.value ? undefined : row);
  const transitions: Transitions = {};
  const admit = store.admit as
    | ((ctx: { tx: Tx; who: PersonActor; caller: TenantPrincipal; row: Row; op: string }) => Promise<void>)
    | undefined;
  const visible = store.visible;

  if (spec.list !== false) {
    handlers.list = async ({
      params,
      query,
      res,
    }: {
      params?: { id: string };
      query: { limit: number; cursor?: string };
      res: Response;
    }) => {
      const client = scoped(res);
      // A nested collection lists the records of a parent the tenant has.
      const parent = nested ? await nested.find(database.sql, prisma, personActor(res), tenantOf(res), String(params?.id)) : undefined;
      const where = {
        ...(nested && parent ? { [nested.field]: parent.id } : {}),
        ...(variant ? { [variant.field]: variant.value } : {}),
        ...(visible ? await visible({ tx: prisma, who: personActor(res), caller: tenantOf(res) }) : {}),
      };
      const page = await keysetList(delegateOf(client, store.model), query, {
        render: (row: Row) => row,
        ...(spec.order === 'oldest' ? { order: 'asc' as const } : {}),
        filters,
        filterWhere: store.filterWhere as Record<string, (v: string) => Where>,
        where,
      });
      return { status: 200, body: { data: await renderAll(client, page.data, parent), cursor: page.cursor } };
    };
  }
  if (spec.get !== false) {
    handlers.get = async ({ params, res }: { params: { id: string }; res: Response }) => {
      const tenantId = actor(res).tenantId;
      const row = ofVariant(await findRow(database.sql, table, tenantId, params.id));
      if (!row) throw missing(resource, params.id);
      if (admit) await admit({ tx: prisma, who: personActor(res), caller: tenantOf(res), row, op: 'get' });
      const [record] = related ? await renderAll(scopeToTenant(prisma, tenantId), [row]) : [render(row, {})];
      return { status: 200, body: record };
    };
  }
  let create: Create | undefined;
  if (spec.create) {
    const action = resource.actions.create as string;
    const build = store.create;
    if (!build) throw new Error(`${resource.object}: the store has no create for a declared create route`);
    const after = store.afterCreate;
    const prepare = store.prepare;
    const personal = spec.create.person;
    /**
     * The row's INSERT rides in the change's first statement, the stored idempotent response (with
     * `res`) in its second: with BEGIN and COMMIT, four round trips for the whole create.
     */
    const insert = async (
      sql: Sql,
      tx: Tx | undefined,
      who: PersonActor,
      id: string,
      data: Where,
      body: unknown,
      parentId: string | undefined,
      res?: Response,
      caller?: TenantPrincipal,
    ) => {
      const now = new Date();
      // The parent locked until the commit: a meeting whose minutes are approved meanwhile refuses the decision.
      const parent = nested ? await nested.lock(sql, tx, who, caller, String(parentId)) : undefined;
      if (nested && parent) data[nested.field] = parent.id;
      if (variant) data[variant.field] = variant.value;
      // A create made by a person: the one the key is bound to, the body naming no one else.
      const person =
        tx && personal
          ? await actingPerson(tx, who, personal.field, (body as Where)[personal.field] as string | undefined, personal.act)
          : undefined;
      const prepared = tx && prepare ? await prepare({ tx, who, body: body as never, id, parent, person, caller, data, now }) : undefined;
      for (const f of stamps) data[f] ??= now;
      let record: Record<string, unknown> & { id: string } = { id };
      await recordRowChange(
        sql,
        {
          tenantId: who.tenantId,
          action,
          insert: insertStatement(table, { ...data, id, tenantId: who.tenantId }, HEAD_PARAMS),
          complete: async (row) => {
            const inserted = rowFromJson(table, row);
            // `related` reads in the transaction (tx, which a store with `related` always has).
            record =
              tx && related
                ? ((await renderAll(scopeToTenant(tx, who.tenantId), [inserted], parent))[0] as typeof record)
                : render(inserted, { parent });
            return {
              // The trail names the person who acted; the key they used goes with it.
              ...(person ? personAsActor(who, person.id) : writerOf(who)),
              action,
              resourceType: resource.object,
              resourceId: id,
              data: { ...(store.auditData?.(record as never) ?? {}), ...(prepared || {}), ...(person ? { credentialId: who.actor } : {}) },
              resource: store.eventData ? store.eventData(record as never) : record,
            };
          },
        },
        res ? endsOwnTransaction(res, 201, () => record) : {},
      );
      if (tx && after) await after({ tx, who, record: record as never, body: body as never, prepared: prepared || {} });
      return record;
    };
    handlers.create = async ({ params, body, res }: { params?: { id: string }; body: unknown; res: Response }) => {
      const who = personActor(res);
      const id = newId(spec.idPrefix);
      const parentId = nested ? String(params?.id) : undefined;
      const data = await build({
        db: scopeToTenant(prisma, who.tenantId),
        shared: prisma,
        sql: database.sql,
        who,
        body: body as never,
        id,
        parentId,
      });
      if (after || prepare || related || nested?.admits || personal) {
        // With steps that read and write through Prisma, the write runs in Prisma's transaction,
        // which completes the idempotent response with the record it returns (db/response-completion.ts).
        const caller = tenantOf(res);
        const record = await prisma.$transaction((tx) => insert(sqlOf(tx), tx, who, id, data, body, parentId, undefined, caller));
        return { status: 201, body: record };
      }
      // Its statements only: it may run twice (appendingTransaction).
      const record = await appendingTransaction(database, who.tenantId, (sql) =>
        insert(sql, undefined, who, id, { ...data }, body, parentId, res),
      );
      idempotencyStored(res);
      return { status: 201, body: record };
    };
    // Inside a caller's transaction: its checks see the caller's uncommitted rows. The body is read
    // by the route's own schema, as a request's is (a caller's malformed body is a bug: it throws).
    const schema = (spec.create as { body?: z.ZodType }).body;
    create = async (tx, who, given, parentId) => {
      if (nested && parentId === undefined) throw new Error(`${resource.object}: a nested create needs its parent's id`);
      const body = schema ? schema.parse(given) : given;
      const id = newId(spec.idPrefix);
      const sql = sqlOf(tx);
      const data = await build({ db: scopeToTenant(tx, who.tenantId), shared: tx, sql, who, body: body as never, id, parentId });
      return insert(sql, tx, who, id, data, body, parentId);
    };
  }
  for (const [verb, t] of Object.entries((spec.transitions ?? {}) as Record<string, TransitionSpec>)) {
    const statusField = spec.statusField as string;
    const action = resource.actions[verb] as string;
    const declared = (store.transitions as Record<string, ((row: Row) => Where) | TransitionStep<unknown> | undefined> | undefined)?.[verb];
    const step: TransitionStep<unknown, unknown> & { set?: (row: Row, now: Date, body: unknown, who: PersonActor) => Where } =
      typeof declared === 'function' ? { set: declared } : ((declared ?? {}) as never);
    if (t.to === undefined && !step.set) throw new Error(`${resource.object}: the store's step for the edit ${verb} has no set`);
    const withHooks = step.guard !== undefined || step.after !== undefined || related !== undefined || admit !== undefined;
    const move = async (sql: Sql, tx: Tx | undefined, who: PersonActor, id: string, res: Response | undefined, body: unknown) => {
      // The optional `{ reason }` of TransitionRequest, or a field of that name in the transition's own body.
      const given = (body as { reason?: unknown } | undefined)?.reason;
      const reason = typeof given === 'string' ? given : undefined;
      const current = ofVariant(await findRow(sql, table, who.tenantId, id, { forUpdate: true }));
      if (!current) throw missing(resource, id);
      if (admit) {
        // The records' own policy on the locked row: a grant revoked meanwhile is seen.
        if (!tx || !res) throw new Error(`${resource.object}: a change of a record with a policy needs the request's caller`);
        await admit({ tx, who, caller: tenantOf(res), row: current, op: verb });
      }
      const state = String(current[statusField]);
      const conflict = () => stateConflict(capitalised(spec.label.one), id, state, verb, t.from, statusField);
      if (!t.from.includes(state)) throw conflict();
      // One clock for the change: the guard's effects, the fields set and the record's updatedAt.
      const now = new Date();
      const prepared = tx && step.guard ? await step.guard({ tx, who, row: current as never, body, now }) : undefined;
      // Conditional on the state read: a concurrent transition makes this one a conflict too.
      const row = await updateRowIf(
        sql,
        table,
        { tenantId: who.tenantId, id, field: statusField, allowed: t.from },
        {
          ...(step.set?.(current, now, body, who) ?? {}),
          ...(t.to === undefined ? {} : { [statusField]: t.to }),
          // Always forward, even within the millisecond of the previous change (clients compare it).
          ...(touches ? { updatedAt: new Date(Math.max(now.getTime(), (current.updatedAt as Date).getTime() + 1)) } : {}),
        },
      );
      if (!row) throw conflict();
      const record =
        tx && related
          ? ((await renderAll(scopeToTenant(tx, who.tenantId), [row]))[0] as Record<string, unknown> & { id: string })
          : render(row, {});
      await recordChange(
        sql,
        {
          ...writerOf(who),
          action,
          resourceType: resource.object,
          resourceId: id,
          data: {
            // An edit keeps the state: its audit event says what changed (auditData), not a move.
            ...(t.to === undefined ? {} : { from: state, to: t.to }),
            ...(reason ? { reason } : {}),
            ...(prepared || {}),
            ...(step.auditData?.(record, current as never, body) ?? {}),
          },
          resource: record,
        },
        tx || !res ? {} : endsOwnTransaction(res, 200, () => record),
      );
      if (tx && step.after) await step.after({ tx, who, record });
      return record;
    };
    const run = async (who: PersonActor, id: string, body: unknown, res?: Response) => {
      if (withHooks) {
        // Prisma's transaction for the hooks; it completes the idempotent response (db/response-completion.ts).
        return prisma.$transaction((tx) => move(sqlOf(tx), tx, who, id, res, body));
      }
      const record = await appendingTransaction(database, who.tenantId, (sql) => move(sql, undefined, who, id, res, body));
      if (res) idempotencyStored(res);
      return record;
    };
    transitions[verb] = (who, id, body) => run(who, id, body);
    // A change named in its body (`POST /triage` with `reportId`) reads the record's id there.
    const idOf = t.idField
      ? (_params: unknown, body: unknown) => String((body as Record<string, unknown>)[t.idField as string])
      : (params: { id: string }) => params.id;
    handlers[verb] = async ({ params, body, res }: { params: { id: string }; body?: unknown; res: Response }) => ({
      status: 200,
      body: await run(personActor(res), idOf(params, body), body, res),
    });
  }
  served.set(handlers, { transitions, create });
  return handlers as Handlers<R>;
}

/** A resource's transitions as served by serveResource, callable outside HTTP (the web application's forms). */
export type Transitions = Record<string, (who: PersonActor, id: string, body: unknown) => Promise<Record<string, unknown>>>;
/**
 * A resource's create as served by serveResource, inside a transaction the caller holds (one change
 * among others); a nested collection's names its parent.
 */
export type Create = (tx: Tx, who: PersonActor, body: unknown, parentId?: string) => Promise<Record<string, unknown> & { id: string }>;
const served = new WeakMap<object, { transitions: Transitions; create: Create | undefined }>();

/** The transitions of handlers serveResource returned: the same checks, transaction and audit event as the routes. */
export function transitionsOf(handlers: object): Transitions {
  const t = served.get(handlers);
  if (!t) throw new Error('not the handlers of serveResource');
  return t.transitions;
}

/**
 * The create of handlers serveResource returned, for a change made of several records (an approved
 * gap analysis turned into findings and remediations): the store's checks, the same row, audit
 * event, event-index and outbox rows as the route, in the caller's transaction.
 */
export function createOf(handlers: object): Create {
  const c = served.get(handlers)?.create;
  if (!c) throw new Error('not the handlers of serveResource, or the resource declares no create');
  return c;
}

/** The writer a change records: the actor of the request, without the person its credential acts for. */
const writerOf = (who: PersonActor): Actor => ({ tenantId: who.tenantId, actor: who.actor, correlationId: who.correlationId });
