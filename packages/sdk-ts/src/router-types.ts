// The types of {@link createRouterClient}: a client's methods inferred from a ts-rest router's
// schemas. They describe a router by its shape (a route has `method`, `path`, `responses`; a schema
// has zod's and Standard Schema's `~standard.types`) instead of importing @ts-rest/core or zod, so
// that the SDK's declarations load neither: a user of `createSvcClient` (whose types are the
// generated ones of api-types.ts) never pays for them, and a user of `createRouterClient` pays only
// for the router they pass.
import type { RequestOptions } from './transport.ts';

type Simplify<T> = { [K in keyof T]: T[K] };

/** The type `{}`: an object type with no required keys. */
type NoKeys = Record<never, never>;

/** A route of a ts-rest router, as far as the client needs it. */
export interface RouteLike {
  method: string;
  path: string;
  responses: Record<number, unknown>;
}

/** A ts-rest router: routes and nested routers by name. */
export interface RouterLike {
  [key: string]: RouteLike | RouterLike;
}

/** A schema that carries its types the Standard Schema way (zod 3.24+, zod 4, valibot, arktype). */
interface Typed {
  readonly '~standard': { readonly types?: unknown };
}

/**
 * What a schema accepts (`input`) or gives (`output`). `null` stays `null`, ts-rest's `c.noBody()`
 * (a symbol) is no body (`undefined`), and anything else that is not a schema stands for itself.
 */
type SchemaSide<S, Side extends 'input' | 'output'> = S extends null
  ? null
  : S extends symbol
    ? undefined
    : S extends Typed
      ? NonNullable<S['~standard']['types']> extends { readonly input: infer I; readonly output: infer O }
        ? Side extends 'input'
          ? I
          : O
        : unknown
      : S;
type SchemaInput<S> = SchemaSide<S, 'input'>;
type SchemaOutput<S> = SchemaSide<S, 'output'>;

/** The `:name` segments of a path, as an object of strings. */
type PathParamNames<P extends string> = P extends `${string}:${infer Rest}`
  ? Rest extends `${infer Name}/${infer Tail}`
    ? Name | PathParamNames<`/${Tail}`>
    : Rest
  : never;
type ParamsFromPath<P extends string> = { [K in PathParamNames<P>]: string };

/** Keys whose value may be left out (undefined allowed, or an object of optional keys) become optional. */
type OptionalWhereEmpty<T> = Simplify<
  { [K in keyof T as undefined extends T[K] ? K : NoKeys extends T[K] ? K : never]?: T[K] } & {
    [K in keyof T as undefined extends T[K] ? never : NoKeys extends T[K] ? never : K]: T[K];
  }
>;

type DropNever<T> = { [K in keyof T as [T[K]] extends [never] ? never : K]: T[K] };

/** Path parameters of a route: its `pathParams` schema's input, else the `:name` segments of its path. */
export type RouteParams<R extends RouteLike> = 'pathParams' extends keyof R
  ? SchemaInput<R['pathParams' & keyof R]>
  : ParamsFromPath<R['path']>;

/**
 * Input keys that a schema accepts as `unknown` (`z.coerce.number()`: `limit`) take the type the
 * schema turns them into, so `query: { limit: 'ten' }` does not compile.
 */
type CoercedInput<I, O> = { [K in keyof I]: unknown extends I[K] ? (K extends keyof O ? O[K] : I[K]) : I[K] };

/** Query of a route: its `query` schema's input (coerced keys typed as their output). */
export type RouteQuery<R extends RouteLike> = 'query' extends keyof R
  ? R['query' & keyof R] extends null
    ? never
    : CoercedInput<SchemaInput<R['query' & keyof R]>, SchemaOutput<R['query' & keyof R]>>
  : never;

/** JSON body of a route: its `body` schema's input; never for GET and `c.noBody()`. */
export type RouteBody<R extends RouteLike> = R extends { method: 'GET' }
  ? never
  : 'body' extends keyof R
    ? R['body' & keyof R] extends symbol | null
      ? never
      : SchemaInput<R['body' & keyof R]>
    : never;

/** The first argument of a route's method: `{ params?, query?, body? }`, each present only when the route has it. */
export type RouteArgs<R extends RouteLike> = OptionalWhereEmpty<
  DropNever<{
    params: keyof RouteParams<R> extends never ? never : RouteParams<R>;
    query: RouteQuery<R>;
    body: RouteBody<R>;
  }>
>;

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207;

/** A response declared with a content type (ts-rest's `c.otherResponse`): its body schema. */
type ResponseSchema<T> = T extends { contentType: string; body: infer B } ? B : T;

/** Body of a route's 2xx responses, as the router's schemas output it. */
export type RouteResponse<R extends RouteLike> = SchemaOutput<ResponseSchema<R['responses'][Extract<keyof R['responses'], SuccessStatus>]>>;

/** The method generated for one route; the arguments object is optional when the route needs nothing. */
export type RouteMethod<R extends RouteLike> =
  NoKeys extends RouteArgs<R>
    ? (args?: RouteArgs<R>, options?: RequestOptions) => Promise<RouteResponse<R>>
    : (args: RouteArgs<R>, options?: RequestOptions) => Promise<RouteResponse<R>>;

/** One namespace per router key, one method per route, nested as the router nests. */
export type RouterClient<T> = {
  readonly [K in keyof T]: T[K] extends RouteLike ? RouteMethod<T[K]> : RouterClient<T[K]>;
};
