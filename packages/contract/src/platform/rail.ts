import type { AppRouter } from '@ts-rest/core';
import { SEARCH_SCOPES, type SearchKindSpec } from '../shared/search-kinds.ts';
import type { WebhookEventType } from './webhook-events.ts';

/**
 * A rail as the contract collects it. Each rail folder has a `rail.ts` whose exports are these
 * fields (`key`, `router`, and `events` and `searchKinds` when it has any); the rails index lists
 * the module (`import * as complianceRail from './compliance/rail.ts'`), one line per rail, and
 * everything else is derived from that list: the contract's router and its type (router.ts), the
 * webhook event registry, the search kinds.
 *
 * A module rather than a `const` built by a function: a declaration file prints the inferred type
 * of a `const` in full, so a `{ router: complianceRouter }` object would repeat the router's whole
 * type (and the list would repeat every rail's again), where a module is printed as its name.
 * rail.ts therefore re-exports the router (`export { complianceRouter as router } from ...`).
 *
 * Adding a rail:
 * 1. a catalogue rail gets its entry in catalogue.ts (base path, tier, lifecycle, sub-resources);
 * 2. `rails/<rail>/`: its schemas, resources, routes and events (index.ts re-exports what the
 *    package exports), and `rail.ts`, this declaration;
 * 3. one line in the list of `rails/index.ts`, and one `export *` line in `src/index.ts`.
 * The server does not compile until its rails index maps the new key to the rail's handlers.
 */
export interface RailDeclaration {
  /** Key of the rail in the contract: its SDK namespace and the server's key; a catalogue rail's id. */
  readonly key: string;
  /** The rail's routes (`railRouter` of resource.ts for a catalogue rail). */
  readonly router: AppRouter;
  /** Event types the rail emits (its resources' and its own), registered in this order. */
  readonly events?: readonly WebhookEventType[];
  /** Kinds of the rail's records that `/v1/search` indexes (`defineSearchKinds`). */
  readonly searchKinds?: readonly SearchKindSpec[];
}

/** The contract's routers by key: a named type per rail, taken from the list. */
export type RailRoutersOf<L extends readonly RailDeclaration[]> = { [R in L[number] as R['key']]: R['router'] };

/** The union of the search kinds the rails of a list declare, with their literal types. */
export type SearchKindOf<L extends readonly RailDeclaration[]> = L[number] extends infer R
  ? R extends { readonly searchKinds: readonly (infer K)[] }
    ? K
    : never
  : never;

/** The routers of the rails by key, in list order; a key listed twice is a mistake of the list and throws. */
export function railRoutersOf<const L extends readonly RailDeclaration[]>(rails: L): RailRoutersOf<L> {
  const out: Record<string, AppRouter> = {};
  for (const rail of rails) {
    if (rail.key in out) throw new Error(`rail ${rail.key} is listed twice`);
    out[rail.key] = rail.router;
  }
  return out as RailRoutersOf<L>;
}

/** The event types of the rails, in list order. */
export function railEventTypes(rails: readonly RailDeclaration[]): WebhookEventType[] {
  return rails.flatMap((rail) => rail.events ?? []);
}

/**
 * The search kinds of the rails in registry order: by scope (content, tenant, marketplace), then
 * in list order.
 */
export function railSearchKinds<const L extends readonly RailDeclaration[]>(rails: L): readonly SearchKindOf<L>[] {
  const kinds = rails.flatMap((rail) => rail.searchKinds ?? []);
  const scope = (kind: SearchKindSpec) => SEARCH_SCOPES.indexOf(kind.scope);
  // Array.prototype.sort is stable: kinds of one scope keep the order of the list.
  return kinds.sort((a, b) => scope(a) - scope(b)) as SearchKindOf<L>[];
}
