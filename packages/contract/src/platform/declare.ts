import type { ContractNoBodyType } from '@ts-rest/core';
import type { z } from 'zod';
import type { RailId } from './catalogue.ts';
import { meta, type RouteMeta } from './meta.ts';

/**
 * Builders for the routes a rail declares by hand (the resource kit declares the rest): the
 * method and path, what the route takes, what it answers and its policy on one line, its docs
 * after it:
 *
 *   scoring: get('/scoring/:rfpId', { pathParams: ScoringParams }, RfpScoring, read).doc(
 *     'Weighted scoring and ranking of an RFP’s bids',
 *     'Computes each bid’s total as …',
 *   ),
 *
 * What they build is the plain ts-rest route the router, the OpenAPI document and the SDK read.
 */

/** What a route takes besides its path. */
export interface RouteInput {
  readonly pathParams?: z.ZodType;
  readonly query?: z.ZodType;
  /** A zod schema, or `c.noBody()` for a POST that takes none. */
  readonly body?: z.ZodType | ContractNoBodyType;
  readonly headers?: z.ZodType;
  readonly contentType?: 'application/json' | 'multipart/form-data';
}

/** A route's answers by status; a lone schema answers 200. */
type Responses = Readonly<Record<number, unknown>>;
type ResponsesOf<S> = S extends z.ZodType ? { 200: S } : S;

type Declared<M extends string, P extends string, I, S, Meta> = { method: M; path: P } & I & { responses: ResponsesOf<S>; metadata: Meta };

/** A route still without its docs: `.doc(summary, description)` completes it. */
export type RouteDraft<M extends string, P extends string, I, S, Meta> = {
  doc(summary: string, description?: string): Declared<M, P, I, S, Meta> & { summary: string; description?: string };
};

function draft<const M extends string, const P extends string, const I extends RouteInput, const S, const Meta extends RouteMeta>(
  method: M,
  path: P,
  input: I,
  responses: S,
  metadata: Meta,
): RouteDraft<M, P, I, S, Meta> {
  const answers = (isSchema(responses) ? { 200: responses } : responses) as ResponsesOf<S>;
  return {
    doc: (summary, description) => ({
      method,
      path,
      ...input,
      responses: answers,
      summary,
      ...(description === undefined ? {} : { description }),
      metadata,
    }),
  };
}

function isSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** The builder of one method: `(path, input, responses, metadata).doc(summary, description)`. */
function builder<const M extends string, In extends RouteInput = RouteInput>(method: M) {
  return <const P extends string, const I extends In, const S extends z.ZodType | Responses, const Meta extends RouteMeta>(
    path: P,
    input: I,
    responses: S,
    metadata: Meta,
  ) => draft(method, path, input, responses, metadata);
}

/** A GET takes no body. */
export const get = builder<'GET', Omit<RouteInput, 'body'>>('GET');
export const post = builder('POST');
export const put = builder('PUT');
export const patch = builder('PATCH');
export const del = builder('DELETE');

/** The policy of a rail's tenant routes: `read`, `write(audit)` and any other permission of the rail. */
export function policyOf<const R extends RailId>(rail: R, area: string = rail) {
  return {
    read: meta({ auth: 'tenant', rail, permission: `${area}:read`, mutating: false }),
    write: <const A extends string>(audit: A) => meta({ auth: 'tenant', rail, permission: `${area}:write`, mutating: true, audit }),
    /** A read under another permission (`risk:export`). */
    reads: <const P extends string>(permission: P) => meta({ auth: 'tenant', rail, permission, mutating: false }),
    /** A change under another permission (`procurement:approve`), recorded as `audit`. */
    changes: <const P extends string, const A extends string>(permission: P, audit: A) =>
      meta({ auth: 'tenant', rail, permission, mutating: true, audit }),
  };
}

/** The route succeeds only in some states of its record or for some callers (`RouteMeta.stateful`). */
export function stateful<const M extends RouteMeta>(m: M): M & { stateful: true } {
  return { ...m, stateful: true };
}
