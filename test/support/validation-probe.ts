import { parse as parseQuery } from 'node:querystring';
import { isDeepStrictEqual } from 'node:util';
import type { FlatRoute } from '@svc/contract';
import { inputGuard } from '../../packages/server/src/http/input-guard.ts';

export interface ProbeInput {
  params: Record<string, string>;
  /** The path and query as sent (percent-encoded). */
  url: string;
  /** The body as the server parses it from the wire. */
  body: unknown;
}

type Parsed = { params: unknown; query: unknown; body: unknown };

function parse(schema: unknown, value: unknown): { ok: boolean; value: unknown } {
  if (!schema || typeof schema !== 'object' || !('safeParse' in schema)) return { ok: true, value };
  const r = (schema as { safeParse(v: unknown): { success: boolean; data?: unknown } }).safeParse(value);
  return { ok: r.success, value: r.data };
}

/**
 * What the route's handler would be given, decided in process by the same checks the server runs
 * on every route before its handler (the input guard, then the route's path, query and body
 * schemas, whose output is what the handler receives), or `undefined` when one of them refuses the
 * request: such a request never reaches a handler or the database.
 */
export function handlerInput(route: FlatRoute['route'], input: ProbeInput): Parsed | undefined {
  const q = input.url.indexOf('?');
  const query = q < 0 ? {} : parseQuery(input.url.slice(q + 1));
  let guarded: unknown;
  inputGuard({ params: input.params, query, body: input.body, originalUrl: input.url } as never, {} as never, (err?: unknown) => {
    guarded = err;
  });
  if (guarded) return undefined;
  const r = route as { pathParams?: unknown; query?: unknown; body?: unknown };
  const params = parse(r.pathParams, input.params);
  // A route that declares no query is handed the raw query by ts-rest, and no handler reads it.
  const parsedQuery = r.query ? parse(r.query, query) : { ok: true, value: undefined };
  const body = parse(r.body, input.body);
  if (!params.ok || !parsedQuery.ok || !body.ok) return undefined;
  return { params: params.value, query: parsedQuery.value, body: body.value };
}

/**
 * How a hostile request relates to the route's handler: `refused` before it, `same` as the plain
 * request once validated (a value the schema strips or ignores), or `reaches` with new input.
 */
export function probe(route: FlatRoute['route'], hostile: ProbeInput, plain: ProbeInput): 'refused' | 'same' | 'reaches' {
  const got = handlerInput(route, hostile);
  if (!got) return 'refused';
  const base = handlerInput(route, plain);
  return base && isDeepStrictEqual(got, base) ? 'same' : 'reaches';
}

/** A small seeded generator (mulberry32), so a sampled walk can be repeated from its printed seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
