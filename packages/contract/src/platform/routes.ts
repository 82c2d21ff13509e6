import { type AppRoute, type AppRouter, isAppRoute } from '@ts-rest/core';
import type { RouteMeta } from './meta.ts';

export interface FlatRoute {
  /** Dotted key path, `compliance.assessments.create`; the OpenAPI operationId and SDK method. */
  readonly name: string;
  readonly route: AppRoute;
  readonly meta: RouteMeta;
}

/** Every route of a router, depth first, in declaration order. */
export function flattenRoutes(router: AppRouter, prefix = ''): FlatRoute[] {
  const out: FlatRoute[] = [];
  for (const [key, value] of Object.entries(router)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (isAppRoute(value)) out.push({ name, route: value, meta: value.metadata as RouteMeta });
    else out.push(...flattenRoutes(value as AppRouter, name));
  }
  return out;
}
