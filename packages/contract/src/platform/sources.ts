import type { AppRoute } from '@ts-rest/core';
import { collectionPathFor, resourceByObject } from './resource.ts';
import { contract } from './router.ts';
import { flattenRoutes } from './routes.ts';

/** A route that declares itself the source of a record type (`metadata.source`). */
interface SourceRoute {
  readonly name: string;
  readonly route: AppRoute;
  readonly params: Readonly<Record<string, string>>;
}

let index: ReadonlyMap<string, SourceRoute> | undefined;

/**
 * The record types of the contract's `source` declarations, each with its route. A type claimed
 * by two routes, by a kit resource as well, or by a route that is not a GET, is a mistake of the
 * contract and throws (the contract's tests build the index).
 */
export function sourceRoutes(): ReadonlyMap<string, SourceRoute> {
  if (index) return index;
  const out = new Map<string, SourceRoute>();
  for (const { name, route, meta } of flattenRoutes(contract)) {
    if (!meta?.source) continue;
    const { object, params = {} } = meta.source;
    const claimed = out.get(object);
    if (claimed) throw new Error(`${name}: ${object} is already the source of ${claimed.name}`);
    if (resourceByObject(object)) throw new Error(`${name}: ${object} is a kit resource; its source is its own route`);
    if (route.method !== 'GET') throw new Error(`${name}: a source route must be a GET, not ${route.method}`);
    for (const param of Object.keys(params)) {
      if (!route.path.includes(`:${param}`)) throw new Error(`${name}: source parameter ${param} is not in ${route.path}`);
    }
    out.set(object, { name, route, params });
  }
  index = out;
  return out;
}

/**
 * The path an event about a record names as its `source`: the record's own route for a kit
 * resource (`/v1/compliance/assessments/asm_...`; its list for one without a get), else the GET route that declares itself the
 * source of the record's type, its parameters filled from the record; undefined for a type no
 * route shows.
 */
export function sourcePathOf(object: string, id: string, record: Readonly<Record<string, unknown>>): string | undefined {
  const declared = resourceByObject(object, record);
  // A resource without a get route (labels, training records) is shown by its list.
  if (declared) {
    if (declared.spec.get !== false) return `${declared.collectionPath}/${id}`;
    // A nested collection's list is under the record's parent; a record without it names no path.
    const parent = declared.spec.parent;
    if (parent && typeof record[parent.field] !== 'string') return undefined;
    return collectionPathFor(declared, record);
  }
  const source = sourceRoutes().get(object);
  if (!source) return undefined;
  return source.route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, param: string) => {
    const field = source.params[param];
    if (field === undefined && param === 'id') return encodeURIComponent(id);
    const value = record[field ?? param];
    // A record without the field (an older row) still names its own id rather than `undefined`.
    return encodeURIComponent(typeof value === 'string' || typeof value === 'number' ? String(value) : id);
  });
}
