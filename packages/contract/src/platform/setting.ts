import { z } from 'zod';
import { listOf, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PaginationQuery } from '../shared/common.ts';
import { type GroupId, type RailId, scopeOf } from './catalogue.ts';
import type { RouteMeta, SettingMeta } from './meta.ts';
import { eventType, type WebhookEventType } from './webhook-events.ts';

/**
 * The setting kit: one declaration of a record that a `PUT` replaces and a `GET` reads, one per
 * tenant (the whistleblowing intake), per calling API key (notification preferences) or per value
 * of a path parameter (a system's profile, by `systemId`). It gives the two routes (and the list of
 * a keyed setting), their metadata (rail, tier, permission, audit action), the event type a change
 * emits, and the GET as the source of the record's events. The server serves them with
 * packages/server/src/setting-kit.ts; the conformance suite walks them from the same declaration.
 *
 * What every setting holds, decided once here: a `PUT` replaces the whole record and answers 200
 * with it; `PUT`s at once are made in turn (the last one wins, none is refused for the row another
 * made meanwhile); each is audited with what it replaced and emitted as one event.
 */

/** What addresses one record besides the tenant. */
export type SettingKey =
  /** The API key that calls: each key reads and replaces its own. */
  | { readonly caller: true }
  /** A path parameter (`systemId`), kept in the row's `field` (the parameter's name when absent). */
  | { readonly param: string; readonly schema: z.ZodType; readonly field?: string; readonly label: string };

export interface SettingSpec<Rec extends z.ZodObject = z.ZodObject, Body extends z.ZodType = z.ZodType> {
  /** The rail of the catalogue, or a group outside it (`webhooks`). */
  readonly rail: RailId | GroupId;
  /** Path under the rail's base path (`intake`); a keyed setting's parameter follows it. */
  readonly path: string;
  /**
   * The catalogue's sub-resource the setting serves when its path is beside it (the intake of
   * `reports`): the path's first segment when absent.
   */
  readonly subResource?: string;
  /** Singular name: object `svc.<rail>.<name>`, action `<name>.updated` unless declared. */
  readonly name: string;
  /** Words for summaries: `public intake`. */
  readonly label: string;
  readonly record: Rec;
  readonly body: Body;
  readonly key?: SettingKey;
  /**
   * A GET of one never set: 404 `not_found`, or 200 with the record's `defaults` (its fields
   * besides `object`, the key's field and `updatedAt`, which is null until the first `PUT`).
   */
  readonly unset: 'not_found' | { readonly defaults: Readonly<Record<string, unknown>> };
  /** Audit action and event type; `<name>.updated` when absent. */
  readonly action?: string;
  /** What the webhook event of a change says; a setting without it emits no event (only its audit event). */
  readonly eventSummary?: string;
  /** Permission area (`whistleblower` in `whistleblower:write`); the rail id when absent. */
  readonly area?: string;
  readonly get: { readonly summary: string; readonly description: string };
  readonly put: { readonly summary: string; readonly description: string };
  /**
   * The body the suites that walk the contract send, when the example cannot be sent by two
   * tenants (a slug unique across tenants): the example with `{{unique}}` (a fresh token) in its strings.
   */
  readonly fixture?: unknown;
  /** A keyed setting's list of the records set, newest first. */
  readonly list?: { readonly summary: string; readonly description: string };
}

type Meta = RouteMeta & { readonly setting: SettingMeta };
type KeyParams<K> = K extends { param: infer P extends string; schema: infer Sc extends z.ZodType }
  ? { pathParams: z.ZodObject<{ [Q in P]: Sc }> }
  : unknown;

export type SettingRoutes<Rec extends z.ZodObject, Body extends z.ZodType, K, L> = {
  get: { method: 'GET'; path: string; responses: { 200: Rec }; summary: string; description: string; metadata: Meta } & KeyParams<K>;
  put: {
    method: 'PUT';
    path: string;
    body: Body;
    responses: { 200: Rec };
    summary: string;
    description: string;
    metadata: Meta;
  } & KeyParams<K>;
} & (L extends { summary: string }
  ? {
      list: {
        method: 'GET';
        path: string;
        query: typeof PaginationQuery;
        responses: { 200: ReturnType<typeof listOf<Rec>> };
        summary: string;
        description: string;
        metadata: Meta;
      };
    }
  : unknown);

export interface Setting<Rec extends z.ZodObject = z.ZodObject, Body extends z.ZodType = z.ZodType> {
  readonly spec: SettingSpec<Rec, Body>;
  /** `svc.<rail>.<name>`. */
  readonly object: string;
  /** The full path of the record, with a keyed setting's `:param`. */
  readonly path: string;
  readonly action: string;
  readonly events: readonly WebhookEventType[];
}

const SETTINGS: Setting[] = [];

/** The record's field that holds the key: `principalId` for the calling key, a parameter's `field`. */
export function keyField(spec: Pick<SettingSpec, 'key'>): string | undefined {
  const key = spec.key;
  if (!key) return undefined;
  return 'caller' in key ? 'principalId' : (key.field ?? key.param);
}

/** The record of a setting never set (`unset.defaults`), for the key (the calling key's id, the parameter's value). */
export function unsetRecord(object: string, spec: Pick<SettingSpec, 'key' | 'unset'>, key: string): Record<string, unknown> {
  if (spec.unset === 'not_found') throw new Error(`${object} has no defaults`);
  const field = keyField(spec);
  return { object, ...(field ? { [field]: key } : {}), ...spec.unset.defaults, updatedAt: null };
}

/** Every declared setting, in declaration order. */
export function declaredSettings(): readonly Setting[] {
  return SETTINGS;
}

/** The setting a route serves, from its metadata. */
export function settingOfMeta(meta: SettingMeta): Setting | undefined {
  return SETTINGS.find((s) => s.object === meta.object);
}

export function setting<
  const Rec extends z.ZodObject,
  const Body extends z.ZodType,
  const K extends SettingKey | undefined = undefined,
  const L extends SettingSpec['list'] = undefined,
>(
  spec: SettingSpec<Rec, Body> & { readonly key?: K; readonly list?: L },
): Setting<Rec, Body> & { readonly routes: SettingRoutes<Rec, Body, K, L> } {
  const rail = scopeOf(spec.rail);
  const object = `svc.${rail.id}.${spec.name}`;
  const served = spec.subResource ?? (spec.path.split('/')[0] as string);
  if (!rail.subResources.includes(served))
    throw new Error(`${object}: ${served} is not a sub-resource of the ${rail.id} rail in the catalogue`);
  if (SETTINGS.some((s) => s.object === object)) throw new Error(`${object} is declared twice`);
  const key = spec.key;
  const param = key && 'param' in key ? key : undefined;
  if (spec.list && !param) throw new Error(`${object}: only a setting keyed by a path parameter has a list`);
  const example = (spec.record.meta() as { examples?: Record<string, unknown>[] } | undefined)?.examples?.[0];
  if (example && example.object !== object) throw new Error(`${object}: the record example's object is ${String(example.object)}`);
  if (spec.unset !== 'not_found') {
    const unset = unsetRecord(object, spec, example?.[keyField(spec) ?? ''] as string);
    const parsed = spec.record.safeParse(unset);
    if (!parsed.success) throw new Error(`${object}: the defaults do not make a record: ${parsed.error.message}`);
  }

  const area = spec.area ?? rail.id;
  const action = spec.action ?? `${spec.name}.updated`;
  const relative = `${rail.routePrefix}/${spec.path}${param ? `/:${param.param}` : ''}`;
  const path = `${rail.basePath}${relative.slice(rail.routePrefix.length)}`;
  const pathParams = param ? { pathParams: z.object({ [param.param]: param.schema }) } : {};
  const settingMeta = (op: SettingMeta['op']): SettingMeta => ({
    name: spec.name,
    object,
    op,
    unset: spec.unset === 'not_found' ? 'not_found' : 'default',
    ...(key ? { key: param ? param.param : 'caller' } : {}),
  });
  const whose = key && 'caller' in key ? 'of the calling API key' : param ? `of the ${param.label}` : 'of the tenant';
  const unsetText =
    spec.unset !== 'not_found'
      ? `Before the first \`PUT\` it answers the defaults (${Object.entries(spec.unset.defaults)
          .map(([field, value]) => `\`${field}\` \`${JSON.stringify(value)}\``)
          .join(', ')}), with \`updatedAt\` null.`
      : `404 \`not_found\` when none is set${param ? ` for this \`${param.param}\`` : ''}.`;
  const read: Meta = {
    auth: 'tenant',
    ...rail.meta,
    permission: `${area}:read`,
    mutating: false,
    // Events about the record name this route as their source (sources.ts).
    source: { object, ...(param ? { params: { [param.param]: param.field ?? param.param } } : {}) },
    setting: settingMeta('get'),
  };
  const routes: Record<string, unknown> = {
    get: {
      method: 'GET',
      path: relative,
      ...pathParams,
      responses: { 200: spec.record },
      summary: spec.get.summary,
      description: `${spec.get.description} Returns the ${spec.label} ${whose}. ${unsetText} Needs \`${area}:read\`.`,
      metadata: read,
    },
    put: {
      method: 'PUT',
      path: relative,
      ...pathParams,
      body: spec.body,
      responses: { 200: spec.record },
      summary: spec.put.summary,
      description: `${spec.put.description} Replaces the ${spec.label} ${whose} and returns it. \`PUT\`s at once are made one after the other: each answers 200 and the last one stays. Needs \`${area}:write\`; recorded in the audit trail as \`${action}\` in the same transaction${spec.eventSummary ? `, and emitted as the webhook event \`${action}\`` : ''}.`,
      metadata: {
        auth: 'tenant',
        ...rail.meta,
        permission: `${area}:write`,
        mutating: true,
        audit: action,
        setting: { ...settingMeta('put'), ...(spec.eventSummary ? { event: action } : {}) },
      } satisfies Meta,
    },
  };
  if (spec.list) {
    routes.list = {
      method: 'GET',
      path: `${rail.routePrefix}/${spec.path}`,
      query: PaginationQuery,
      responses: { 200: listOf(spec.record) },
      summary: spec.list.summary,
      description: `${spec.list.description} Newest first, as \`{ data, cursor }\`: pass \`limit\` (1 to ${PAGE_LIMIT_MAX}, default ${PAGE_LIMIT_DEFAULT}) and the \`cursor\` of the previous page; \`cursor\` is null on the last page. Needs \`${area}:read\`.`,
      metadata: {
        auth: 'tenant',
        ...rail.meta,
        permission: `${area}:read`,
        mutating: false,
        setting: settingMeta('list'),
      } satisfies Meta,
    };
  }
  const declared = {
    spec: spec as SettingSpec<Rec, Body>,
    object,
    path,
    action,
    events: spec.eventSummary ? [eventType(action, spec.eventSummary, spec.record)] : [],
    routes: routes as SettingRoutes<Rec, Body, K, L>,
  };
  SETTINGS.push(declared as unknown as Setting);
  return declared;
}
