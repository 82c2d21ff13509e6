import { type AppRouter, initContract } from '@ts-rest/core';
import { z } from 'zod';
import { listOf, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PaginationQuery, prefixedId } from '../shared/common.ts';
import { ACTION_ALIASES } from './action-aliases.ts';
import { type GroupId, getRail, type RailId, scopeOf } from './catalogue.ts';
import { commonErrorResponses } from './errors.ts';
import type { ResourceMeta, RouteMeta } from './meta.ts';
import { type TransitionAction, transitionPermission } from './tiers.ts';
import type { WebhookEventType } from './webhook-events.ts';

/**
 * The resource kit: one declaration of a tenant-scoped resource gives its routes (`list`, `create`,
 * `get`, one `POST /:id/<verb>` per transition), their metadata (rail, tier, permission, audit
 * action), its webhook event types and its id prefix. The server serves them with the matching
 * kit (packages/server/src/kit), the conformance suite tests them from the same declaration.
 *
 * Naming rules, decided once here:
 * - route keys: `list`, `create`, `get` and the transition verbs, under `<rail>.<path>` in the SDK;
 * - object: `svc.<rail>.<name>`; id: `<idPrefix>_<ULID>`, the prefix unique across the contract;
 * - audit actions and event types: `<name>.created` and `<name>.<past tense of the verb>` unless
 *   declared (the specification fixes some names: `evidence.uploaded`).
 */

const c = initContract();

/**
 * A change of one record: `POST /:id/<verb>` moves it from one of `from` to `to`. Without `to` it
 * is an edit: the record's fields change (by the server's step) and its state stays, allowed only
 * in the `from` states (a disclosure's facts while it is open, an offer on a quote still asked).
 */
export interface TransitionSpec {
  readonly from: readonly [string, ...string[]];
  readonly to?: string;
  /** Audit action and event type; `<name>.<past tense of the verb>` when absent. */
  readonly action?: string;
  /** Kind of permission on the rail's area (`write`, `approve`, `attest`); decided in tiers.ts when absent. */
  readonly grant?: TransitionAction;
  readonly summary: string;
  readonly description?: string;
  /**
   * `DELETE`: served as `DELETE /:id` (a deletion that keeps the record in its end state, as the
   * specification's deletes of schedules do); `PATCH`: served as `PATCH /:id` (an edit of the
   * record's fields), or `PATCH /:id/<path>`. `POST /:id/<path or verb>` otherwise.
   */
  readonly method?: 'DELETE' | 'PATCH';
  /** The last segment of the path when it is not the verb (`submissions` for a filing; a `PATCH` of `/:id/weights`). */
  readonly path?: string;
  /** What the webhook event says happened; the summary when absent. */
  readonly eventSummary?: string;
  /**
   * The change succeeds only for some callers or contents besides the state (the stage a filing
   * names must be due): the suites that walk every route accept 409 and 422 from the owner.
   */
  readonly stateful?: true;
  /**
   * The request body when the transition takes fields of its own (an outcome, a note); the
   * optional `{ reason }` (TransitionRequest) when absent. The server's step reads it.
   */
  readonly body?: z.ZodType;
  /**
   * The body field that names the record when the change is not under it: `POST /<path>` under the
   * rail's base path with the record's id in the body (`POST /triage` with `reportId`), as the
   * specification puts some changes. Needs `path` and a `body` that has the field.
   */
  readonly idField?: string;
}

/** The record a nested collection sits under (ResourceSpec.parent). */
export interface ParentSpec {
  /** The parent's collection under the rail's base path: `board-meetings`; `''` for the rail's own records (`/v1/workspaces/:id`). */
  readonly path: string;
  readonly idPrefix: string;
  /** Words for the parent: `board meeting`. */
  readonly label: string;
  /** The field of the record (and of its row) that holds the parent's id: `meetingId`. */
  readonly field: string;
  /** The parent's states in which a record may be created under it (its `field`, and the states); 409 naming the state otherwise. */
  readonly createIn?: { readonly field: string; readonly states: readonly [string, ...string[]] };
  /** The setup step (its `as`) whose response is the parent the walking suites create records under. */
  readonly step: string;
}

/**
 * The parent of a collection nested under a kit resource's records: its path, prefix and label
 * from the declaration, with the field that holds its id and the states that admit a create.
 */
export function under(
  parent: Resource,
  opts: Pick<ParentSpec, 'field' | 'step'> & { readonly createIn?: readonly [string, ...string[]] },
): ParentSpec {
  const statusField = parent.spec.statusField;
  if (opts.createIn && !statusField) throw new Error(`${parent.object} has no statusField for createIn`);
  return {
    path: parent.spec.path,
    idPrefix: parent.spec.idPrefix,
    label: parent.spec.label.one,
    field: opts.field,
    step: opts.step,
    ...(opts.createIn ? { createIn: { field: statusField as string, states: opts.createIn } } : {}),
  };
}

export interface ResourceSpec<
  Rec extends z.ZodObject = z.ZodObject,
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Filters extends z.ZodRawShape = z.ZodRawShape,
  T extends Record<string, TransitionSpec> = Record<string, TransitionSpec>,
  P extends ParentSpec | undefined = ParentSpec | undefined,
> {
  /** The rail of the catalogue the records belong to, or a group outside it (`webhooks`). */
  readonly rail: RailId | GroupId;
  /** Sub-resource path under the rail's base path (`assessments`), or a path under one (`nda-vault/requests`). */
  readonly path: string;
  /**
   * The catalogue's sub-resource the collection serves when its path is beside it rather than
   * under it: `schedule` for the collection `/schedules`, whose create the specification puts at
   * `POST /schedule` (see `create.path`).
   */
  readonly subResource?: string;
  /**
   * A collection under one record of another resource (`/board-meetings/:id/decisions`): its
   * routes take the parent's id as `:id`; the list shows the parent's records only, the create
   * writes records under it, and a parent of another tenant (or none) is 404. Such a collection
   * declares list and create only (`get: false`, no transitions): its records are read in its list.
   */
  readonly parent?: P;
  /**
   * One of several resources kept in one table and told apart by a column: the Slack, Teams and
   * email channels are the rows whose `kind` is `slack`, `teams` or `email`. The variants share
   * the id prefix (claimed by their family, `svc.<rail>.<family>`) and the event types their
   * changes emit, which the rail registers once for the family (their data any variant's record);
   * an id of another variant is 404 on this one's routes. Variants may also share one record type
   * (the same `name`, so one object): the Art. 50, Art. 53 and model-card documents are each a
   * `svc.public_disclosure.document`, told apart by its `kind`.
   */
  readonly variant?: { readonly family: string; readonly field: string; readonly value: string };
  /** Singular name: object `svc.<rail>.<name>`, actions `<name>.<verb>`. */
  readonly name: string;
  /** Words for summaries: `assessment` / `assessments`. */
  readonly label: { readonly one: string; readonly many: string };
  readonly idPrefix: string;
  readonly record: Rec;
  /** Name of the record's status field when it has transitions. */
  readonly statusField?: keyof z.infer<Rec> & string;
  /** Equality filters of the list, by query key. */
  readonly filters?: Filters;
  /** The list's order: `newest` first (the default), or `oldest` first (a thread read from its start). */
  readonly order?: 'newest' | 'oldest';
  /**
   * Where a filter's value is found in the record when it is not the field of the same name:
   * a dotted path (`subject.type`), or `controlIds[]` for "the array contains the value".
   */
  readonly filterFields?: { readonly [K in keyof Filters]?: string };
  /**
   * Calls a client makes before the create example is valid (activating the framework whose
   * controls it cites, ...); for a resource without `create`, the calls that bring records into
   * being. Documentation, and the fixtures of the conformance suite. A step named `as` lends its
   * response's fields to later steps (their bodies and paths: `/rfp/{{rfp.id}}/open`) and to
   * `create.fixture` (`{{<as>.<field>}}`). A step with `tenant: 'peer'` is made by another tenant
   * of the platform (the firm whose published listing the tenant engages).
   */
  readonly setup?: readonly {
    readonly method: 'POST';
    readonly path: string;
    readonly body: unknown;
    readonly as?: string;
    readonly tenant?: 'peer';
  }[];
  readonly create?: {
    readonly body: Body & z.ZodType;
    /** The create's path under the rail's base path when it is not the collection's (`schedule`). */
    readonly path?: string;
    /** Audit action; `<name>.created` when absent. */
    readonly action?: string;
    /** Registered event type when it differs from the action (names the specification fixes). */
    readonly event?: string;
    /** Permission action on the rail's area; `write` when absent. */
    readonly grant?: 'write' | 'attest' | 'approve';
    readonly summary: string;
    readonly description?: string;
    readonly eventSummary?: string;
    /**
     * The body the suites that walk the contract create records with, when the example cannot be
     * sent twice (a unique name) or cites a record (a disclosure's id): the example with
     * `{{unique}}` (a fresh token per record) and `{{<as>.<field>}}` (a field of a named setup
     * step's response) in its strings. The example itself stays what a client would send.
     */
    readonly fixture?: unknown;
    /**
     * A create made by a person, not by a key: the person the API key is bound to (`personId` of
     * the key) acts, and the audit event names them, with the key in `data.credentialId`. A
     * service key, or a body `field` naming someone else, is 403. `act` words the refusal ("sign
     * a risk off"); `fixture` names the person the walking suites' key acts for (`{{owner.id}}`,
     * a field of a setup step's response).
     */
    readonly person?: { readonly field: string; readonly act: string; readonly fixture: string };
  };
  readonly transitions?: T;
  /** Permission area (`compliance` in `compliance:read`); the rail id when absent. */
  readonly area?: string;
  /** `get` and `list` routes are generated unless turned off here. */
  readonly get?: boolean;
  readonly list?: boolean;
  /**
   * What the generated list and get routes' descriptions say before the kit's own sentences: the
   * domain facts a reader needs (what is listed, which records a get reveals).
   */
  readonly notes?: { readonly list?: string; readonly get?: string };
}

type Meta = RouteMeta & { readonly resource: ResourceMeta };
type IdParams = z.ZodObject<{ id: z.ZodString }>;

/** A nested collection's routes take the parent's id as `:id`. */
type ParentParams<P> = P extends ParentSpec ? { pathParams: IdParams } : unknown;
type ListRoute<Rec extends z.ZodObject, F extends z.ZodRawShape> = {
  method: 'GET';
  path: string;
  query: z.ZodObject<(typeof PaginationQuery)['shape'] & F>;
  responses: { 200: ReturnType<typeof listOf<Rec>> };
  summary: string;
  description: string;
  metadata: Meta;
};
type CreateRoute<Rec extends z.ZodObject, B extends z.ZodType> = {
  method: 'POST';
  path: string;
  body: B;
  responses: { 201: Rec };
  summary: string;
  description?: string;
  metadata: Meta;
};
export const TransitionBody = z
  .strictObject({
    reason: z.string().min(1).max(1000).optional().meta({ description: 'Why; kept in the audit event.' }),
  })
  .meta({ id: 'TransitionRequest', examples: [{ reason: 'Reviewed by the governance board.' }] });
/** What a route on one record (`/:id`, `/:id/<verb>`) declares besides its method and body. */
type OnRecord<Rec extends z.ZodObject> = {
  path: string;
  pathParams: IdParams;
  responses: { 200: Rec };
  summary: string;
  description?: string;
  metadata: Meta;
};
type GetRoute<Rec extends z.ZodObject> = OnRecord<Rec> & { method: 'GET' };
type DeleteRoute<Rec extends z.ZodObject> = OnRecord<Rec> & { method: 'DELETE' };
type TransitionRoute<Rec extends z.ZodObject, TB extends z.ZodType, M extends 'POST' | 'PATCH' = 'POST'> = OnRecord<Rec> & {
  method: M;
  body: TB;
};
type TransitionBodySchema<TS> = TS extends { body: infer TB extends z.ZodType } ? TB : z.ZodOptional<typeof TransitionBody>;
/** A change whose record is named in its body (TransitionSpec.idField): no path parameter. */
type BodyNamedRoute<Rec extends z.ZodObject, TB extends z.ZodType> = Omit<OnRecord<Rec>, 'pathParams'> & { method: 'POST'; body: TB };

export type ResourceRoutes<
  Rec extends z.ZodObject,
  B extends z.ZodType | undefined,
  F extends z.ZodRawShape,
  T extends Record<string, TransitionSpec>,
  P extends ParentSpec | undefined = undefined,
> = { list: ListRoute<Rec, F> & ParentParams<P>; get: GetRoute<Rec> } & (B extends z.ZodType
  ? { create: CreateRoute<Rec, B> & ParentParams<P> }
  : unknown) & {
    [V in keyof T]: T[V] extends { idField: string }
      ? BodyNamedRoute<Rec, TransitionBodySchema<T[V]>>
      : T[V] extends { method: 'DELETE' }
        ? DeleteRoute<Rec>
        : T[V] extends { method: 'PATCH' }
          ? TransitionRoute<Rec, TransitionBodySchema<T[V]>, 'PATCH'>
          : TransitionRoute<Rec, TransitionBodySchema<T[V]>>;
  };

/** A declared resource: its routes (a ts-rest router) and what the server and the tests read from it. */
export interface Resource<
  Rec extends z.ZodObject = z.ZodObject,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  F extends z.ZodRawShape = z.ZodRawShape,
  T extends Record<string, TransitionSpec> = Record<string, TransitionSpec>,
  P extends ParentSpec | undefined = ParentSpec | undefined,
> {
  readonly spec: ResourceSpec<Rec, B, F, T, P>;
  /** `svc.<rail>.<name>`. */
  readonly object: string;
  /** `/v1/<base>/<path>`: the collection's full path. */
  readonly collectionPath: string;
  /** The create's full path: the collection's unless the declaration gives `create.path`. */
  readonly createPath: string;
  readonly routes: ResourceRoutes<Rec, B, F, T, P>;
  /** Event types the resource emits, with the record as their data. */
  readonly events: readonly WebhookEventType[];
  /** Audit action of each route key that mutates. */
  readonly actions: Readonly<Record<string, string>>;
}

const ID_PREFIXES = new Map<string, string>();

/** Registers an id prefix; a prefix claimed twice is a programming error caught at import. */
export function claimIdPrefix(prefix: string, owner: string): void {
  if (!/^[a-z]{2,5}$/.test(prefix)) throw new Error(`id prefix ${prefix} of ${owner}: 2 to 5 lowercase letters`);
  const held = ID_PREFIXES.get(prefix);
  if (held !== undefined && held !== owner) throw new Error(`id prefix ${prefix} of ${owner} is already used by ${held}`);
  ID_PREFIXES.set(prefix, owner);
}

/** Every id prefix of the contract and what it identifies. */
export function idPrefixes(): ReadonlyMap<string, string> {
  return ID_PREFIXES;
}

const RESOURCES: Resource[] = [];

/** Every declared resource, in declaration order. */
export function declaredResources(): readonly Resource[] {
  return RESOURCES;
}

/**
 * The resource whose object is `svc.<rail>.<name>`. Of variants sharing one object (the
 * public-disclosure documents), the one `record` is a row of, when given.
 */
export function resourceByObject(object: string, record?: Readonly<Record<string, unknown>>): Resource | undefined {
  const all = RESOURCES.filter((r) => r.object === object);
  if (all.length < 2 || !record) return all[0];
  return all.find((r) => r.spec.variant && record[r.spec.variant.field] === r.spec.variant.value) ?? all[0];
}

/** The resource a kit route serves, from its metadata (of variants sharing an object, its variant). */
export function resourceOfMeta(meta: ResourceMeta): Resource | undefined {
  return RESOURCES.find((r) => r.object === meta.object && r.spec.variant?.value === meta.variant);
}

const IRREGULAR: Readonly<Record<string, string>> = { submit: 'submitted', run: 'ran', sign_off: 'signed_off', cancel: 'canceled' };

/** `complete` -> `completed`, `start` -> `started`, `verify` -> `verified`. */
export function pastTense(verb: string): string {
  if (IRREGULAR[verb]) return IRREGULAR[verb];
  if (verb.endsWith('e')) return `${verb}d`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ied`;
  return `${verb}ed`;
}

function exampleOf(schema: z.ZodType): unknown {
  const examples = (schema.meta() as { examples?: unknown[] } | undefined)?.examples;
  return examples?.[0];
}

/**
 * The label with its indefinite article, as it is said: `an assessment`, `a vendor`, and for an
 * initialism by the sound of its first letter: `an NDA request`, `an RFP`, `a DPIA`.
 */
export function withArticle(label: string): string {
  const initialism = /^[A-Z]{2,}/.test(label);
  const vowelSound = initialism ? /^[AEFHILMNORSX]/.test(label) : /^[aeiouAEIOU]/.test(label);
  return `${vowelSound ? 'an' : 'a'} ${label}`;
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function resource<
  const Rec extends z.ZodObject,
  const B extends z.ZodType | undefined = undefined,
  const F extends z.ZodRawShape = Record<never, never>,
  const T extends Record<string, TransitionSpec> = Record<never, never>,
  const P extends ParentSpec | undefined = undefined,
>(spec: ResourceSpec<Rec, B, F, T, P>): Resource<Rec, B, F, T, P> {
  const rail = scopeOf(spec.rail);
  const object = `svc.${rail.id}.${spec.name}`;
  // A collection is a sub-resource of the catalogue or sits under one (`nda-vault/requests`).
  const parent = spec.parent;
  const served = spec.subResource ?? (parent?.path || spec.path);
  if (!rail.subResources.includes(served) && !rail.subResources.includes(served.split('/')[0] as string)) {
    throw new Error(`${object}: ${served} is not a sub-resource of the ${rail.id} rail in the catalogue, nor under one`);
  }
  claimIdPrefix(spec.idPrefix, spec.variant ? `svc.${rail.id}.${spec.variant.family}` : object);
  if (spec.variant && !(spec.variant.field in spec.record.shape)) {
    throw new Error(`${object}: the record has no field ${spec.variant.field} that tells its variant`);
  }
  const example = exampleOf(spec.record) as Record<string, unknown> | undefined;
  const exampleId = typeof example?.id === 'string' ? example.id : `${spec.idPrefix}_01JD3Z8W2M6Q4X9V7K5T1B0N3R`;
  if (!exampleId.startsWith(`${spec.idPrefix}_`)) throw new Error(`${object}: the record example's id does not use ${spec.idPrefix}_`);
  if (example && example.object !== object) throw new Error(`${object}: the record example's object is ${String(example.object)}`);

  if (parent) {
    if (spec.get !== false || spec.transitions)
      throw new Error(`${object}: a nested collection declares list and create only (get: false, no transitions)`);
    if (spec.create?.path) throw new Error(`${object}: a nested collection is created at its own path`);
    if (!(parent.field in spec.record.shape)) throw new Error(`${object}: the record has no field ${parent.field} for its parent`);
    if (!spec.setup?.some((s) => s.as === parent.step)) throw new Error(`${object}: no setup step is named ${parent.step}, the parent`);
  }
  const area = spec.area ?? rail.id;
  const base = { auth: 'tenant', ...rail.meta } as const;
  const resMeta = (op: ResourceMeta['op'], extra: Partial<ResourceMeta> = {}): ResourceMeta => ({
    name: spec.name,
    object,
    idPrefix: spec.idPrefix,
    op,
    ...(spec.variant ? { variant: spec.variant.value } : {}),
    ...extra,
  });
  const read = (op: 'list' | 'get'): Meta => ({ ...base, permission: `${area}:read`, mutating: false, resource: resMeta(op) });
  // A rail whose records are its own (`/v1/workspaces`) declares the path `''`.
  const collection = `${rail.routePrefix}${parent ? `${parent.path ? `/${parent.path}` : ''}/:id/${spec.path}` : spec.path ? `/${spec.path}` : ''}`;
  const createPath = spec.create?.path ? `${rail.routePrefix}/${spec.create.path}` : collection;
  const idParams = z.object({ id: prefixedId(spec.idPrefix, exampleId) });
  // The parent's id in a nested collection's path: the record example's, or one of the parent's prefix.
  const parentExample = parent ? example?.[parent.field] : undefined;
  const parentParams = parent
    ? {
        pathParams: z.object({
          id: prefixedId(
            parent.idPrefix,
            typeof parentExample === 'string' ? parentExample : `${parent.idPrefix}_01JD3Z8W2M6Q4X9V7K5T1B0N3R`,
          ).meta({ description: `Id of the ${parent.label} (\`${parent.idPrefix}_\` prefix).` }),
        }),
      }
    : {};
  // What a nested collection's routes say of their parent.
  const ofParent = parent ? ` of the ${parent.label}` : '';
  const parentMissing = parent
    ? ` ${capitalise(withArticle(parent.label))} of another tenant, or one that does not exist, is 404 \`not_found\`.`
    : '';

  const routes: Record<string, unknown> = {};
  const actions: Record<string, string> = {};
  const events: WebhookEventType[] = [];
  const event = (type: string, summary: string) =>
    events.push({ type, category: type.split('.')[0] as string, summary, data: spec.record });

  const filterKeys = Object.keys(spec.filters ?? {});
  const filterField = (key: string) => {
    const where = (spec.filterFields as Record<string, string | undefined> | undefined)?.[key];
    if (where?.endsWith('[]')) return { text: `whose \`${where.slice(0, -2)}\` contains`, field: where };
    return { text: `whose \`${where ?? key}\` equals`, field: where ?? key };
  };
  // A filter without its own description gets one from the field it matches, so a new rail's lists are documented too.
  const describedFilters = (): F => {
    const out: Record<string, z.ZodType> = {};
    for (const [key, schema] of Object.entries((spec.filters ?? {}) as Record<string, z.ZodType>)) {
      const current = (schema.meta() ?? {}) as { description?: string; id?: string };
      const own = current.description ?? '';
      out[key] =
        current.id || own.startsWith('Only ')
          ? schema
          : schema.meta({ ...current, description: `Only ${spec.label.many} ${filterField(key).text} this value.${own ? ` ${own}` : ''}` });
    }
    return out as unknown as F;
  };
  const listDescription = () =>
    [
      spec.notes?.list ?? '',
      `Returns the ${parent ? `${spec.label.many}${ofParent}` : `tenant's ${spec.label.many}`}, ${spec.order ?? 'newest'} first, as \`{ data, cursor }\`: pass \`limit\` (1 to ${PAGE_LIMIT_MAX}, default ${PAGE_LIMIT_DEFAULT}) and the \`cursor\` of the previous page; \`cursor\` is null on the last page.`,
      filterKeys.length > 0
        ? `Filters, combined with AND: ${filterKeys.map((k) => `\`${k}\` (${spec.label.many} ${filterField(k).text} the value)`).join(', ')}.`
        : '',
      `Needs \`${area}:read\`.${parentMissing}`,
    ]
      .filter(Boolean)
      .join(' ');

  if (spec.list !== false) {
    routes.list = {
      method: 'GET',
      path: collection,
      ...parentParams,
      query: PaginationQuery.extend(describedFilters()),
      responses: { 200: listOf(spec.record) },
      summary: `List ${parent ? `the ${spec.label.many} of ${withArticle(parent.label)}` : spec.label.many}`,
      description: listDescription(),
      metadata: read('list'),
    };
  }
  if (spec.create) {
    const action = spec.create.action ?? `${spec.name}.created`;
    actions.create = action;
    const eventType = spec.create.event ?? action;
    const person = spec.create.person;
    const personal = person
      ? `The person acting is the one the API key is bound to (\`personId\` of the key): a service key bound to no person, or a body \`${person.field}\` naming someone else, is 403 \`forbidden\`; the audit event's actor is that person, with the key in \`data.credentialId\`. `
      : '';
    event(eventType, spec.create.eventSummary ?? `${capitalise(withArticle(spec.label.one))} was created.`);
    if (spec.create.event && spec.create.event !== action) ACTION_ALIASES[action] = spec.create.event;
    const createIn = parent?.createIn;
    const allowedIn = createIn
      ? ` Allowed while the ${parent?.label}'s \`${createIn.field}\` is ${createIn.states.map((s) => `\`${s}\``).join(' or ')}; otherwise 409 \`conflict\` naming its state, and nothing changes.`
      : '';
    routes.create = {
      method: 'POST',
      path: createPath,
      ...parentParams,
      body: spec.create.body,
      responses: { 201: spec.record },
      summary: spec.create.summary,
      description: `${spec.create.description ? `${spec.create.description} ` : ''}${personal}Returns 201 with the new ${spec.label.one}, id \`${spec.idPrefix}_<ULID>\`. Needs \`${area}:${spec.create.grant ?? 'write'}\`; recorded in the audit trail as \`${action}\` in the same transaction, and emitted as the webhook event \`${eventType}\`. Send an \`Idempotency-Key\` so that a retry does not create a second ${spec.label.one}.${allowedIn}${parentMissing}`,
      metadata: {
        ...base,
        permission: `${area}:${spec.create.grant ?? 'write'}`,
        mutating: true,
        audit: action,
        // A parent in the wrong state is a 409 the walking suites accept from the owner.
        ...(createIn ? { stateful: true as const } : {}),
        resource: resMeta('create', { event: eventType }),
      } satisfies Meta,
    };
  }
  if (spec.get !== false) {
    routes.get = {
      method: 'GET',
      path: `${collection}/:id`,
      pathParams: idParams,
      responses: { 200: spec.record },
      summary: `Get ${withArticle(spec.label.one)}`,
      description: `${spec.notes?.get ? `${spec.notes.get} ` : ''}Returns the ${spec.label.one} with this \`${spec.idPrefix}_\` id. Needs \`${area}:read\`. ${capitalise(withArticle(spec.label.one))} of another tenant, or one that does not exist, is 404 \`not_found\`: ids of other tenants are not disclosed.${spec.variant ? ` So is the id of another \`${spec.variant.field}\` of the family.` : ''}`,
      metadata: read('get'),
    };
  }
  for (const [verb, t] of Object.entries(spec.transitions ?? {})) {
    if (!spec.statusField) throw new Error(`${object}: transitions need a statusField`);
    if (verb in routes) throw new Error(`${object}: transition ${verb} collides with a route key`);
    if (!/^[a-z][a-z_]*$/.test(verb)) throw new Error(`${object}: transition verb ${verb} must be lowercase snake_case`);
    const action = t.action ?? `${spec.name}.${pastTense(verb)}`;
    actions[verb] = action;
    event(action, t.eventSummary ?? `${t.summary}.`);
    const grant = t.grant ?? transitionPermission(verb);
    const deletes = t.method === 'DELETE';
    if (deletes && t.body) throw new Error(`${object}: transition ${verb} is a DELETE, which takes no body`);
    if (deletes && t.path) throw new Error(`${object}: transition ${verb} is a DELETE of /:id; it takes no path`);
    if (t.to === undefined && !t.body) throw new Error(`${object}: edit ${verb} needs the body it changes the record with`);
    if (t.idField !== undefined) {
      if (t.method || !t.path) throw new Error(`${object}: transition ${verb} names its record in the body: a POST with a path`);
      const field = (t.body as z.ZodObject | undefined)?.shape?.[t.idField];
      if (!field) throw new Error(`${object}: transition ${verb}'s body has no field ${t.idField}`);
    }
    const states = t.from.map((s) => `\`${s}\``).join(' or ');
    const effect =
      t.to === undefined
        ? `Allowed while the ${spec.label.one}'s \`${spec.statusField}\` is ${states}; changes the ${spec.label.one} and returns it.`
        : `Allowed when the ${spec.label.one}'s \`${spec.statusField}\` is ${states}; sets it to \`${t.to}\` and returns the updated ${spec.label.one}.`;
    const byBody = t.idField !== undefined;
    routes[verb] = {
      method: t.method ?? 'POST',
      path: byBody
        ? `${rail.routePrefix}/${t.path}`
        : t.path
          ? `${collection}/:id/${t.path}`
          : t.method
            ? `${collection}/:id`
            : `${collection}/:id/${verb.replaceAll('_', '-')}`,
      ...(byBody ? {} : { pathParams: idParams }),
      ...(deletes ? {} : { body: t.body ?? TransitionBody.optional() }),
      responses: { 200: spec.record },
      summary: t.summary,
      description: `${t.description ? `${t.description} ` : ''}${byBody ? `The ${spec.label.one} is named by \`${t.idField}\`; one of another tenant, or none, is 404 \`not_found\`. ` : ''}${effect} From any other state: 409 \`conflict\` naming the current state, and nothing changes. Needs \`${area}:${grant}\`; recorded in the audit trail as \`${action}\`${t.body || deletes ? '' : ' (with the optional `reason`)'} and emitted as the webhook event \`${action}\`.`,
      metadata: {
        ...base,
        permission: `${area}:${grant}`,
        mutating: true,
        audit: action,
        ...(t.stateful ? { stateful: true as const } : {}),
        resource: resMeta(t.to === undefined ? 'edit' : 'transition', {
          verb,
          from: t.from,
          ...(t.to === undefined ? {} : { to: t.to }),
          event: action,
          statusField: spec.statusField,
          ...(byBody ? { idField: t.idField } : {}),
        }),
      } satisfies Meta,
    };
  }

  const declared: Resource<Rec, B, F, T, P> = {
    spec,
    object,
    collectionPath: `${rail.basePath}${collection.slice(rail.routePrefix.length)}`,
    createPath: `${rail.basePath}${createPath.slice(rail.routePrefix.length)}`,
    routes: routes as ResourceRoutes<Rec, B, F, T, P>,
    events,
    actions,
  };
  RESOURCES.push(declared as unknown as Resource);
  return declared;
}

/**
 * The collection that lists a record: the resource's collection path, with a nested collection's
 * `:id` filled by the record's parent (its `parent.field`).
 */
export function collectionPathFor(resource: Resource, record: Readonly<Record<string, unknown>>): string {
  const parent = resource.spec.parent;
  if (!parent) return resource.collectionPath;
  const id = record[parent.field];
  if (typeof id !== 'string') throw new Error(`${resource.object}: the record has no ${parent.field}`);
  return resource.collectionPath.replace(':id', encodeURIComponent(id));
}

export { ACTION_ALIASES } from './action-aliases.ts';

/**
 * The router of a rail: its routes under the catalogue's base path (never restated), with the
 * common error responses. Resources go in as `{ assessments: assessments.routes }`.
 */
export function railRouter<const R extends AppRouter>(rail: RailId, routes: R) {
  type Options = { pathPrefix: `/v1/${string}`; commonResponses: typeof commonErrorResponses };
  return c.router<R, `/v1/${string}`, Options>(routes as never, {
    pathPrefix: getRail(rail).basePath,
    commonResponses: commonErrorResponses,
  });
}
