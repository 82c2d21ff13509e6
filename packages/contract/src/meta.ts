import type { RailId } from './catalogue.ts';

/**
 * Policy carried by every route. One global middleware reads it: the tier gate (from the rail),
 * the permission check, the idempotency layer (mutating routes) and the audit writer.
 */
export interface RouteMeta {
  /** `tenant` routes take an API key, `operator` routes an operator credential, `public` none. */
  readonly auth: 'tenant' | 'operator' | 'public';
  /** Rail of the catalogue the route belongs to; absent for operator and public routes. */
  readonly rail?: RailId;
  /** Tag of routes outside the catalogue that form their own group (`webhooks`). */
  readonly group?: string;
  /** `<area>:<action>` the caller's role and scopes must grant. */
  readonly permission?: string;
  readonly mutating: boolean;
  /** Audit action recorded in the same transaction as the change. */
  readonly audit?: string;
}

export function meta<const M extends RouteMeta>(m: M): M {
  return m;
}
