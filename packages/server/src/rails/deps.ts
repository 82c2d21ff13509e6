import type { Response } from 'express';
import type { Database } from '../db/client.ts';
import { ApiError } from '../errors.ts';
import { actorOf, ctxOf, type TenantPrincipal } from '../http/context.ts';
import type { WebhookConfig } from '../webhooks/config.ts';

/** What route handlers get: the database and the service's own facts. */
export interface RailDeps {
  db: Database;
  version: string;
  reconcileIntervalSeconds: number;
  /** Settings of the routes that send to outside addresses (target checks, rotation overlap). */
  webhooks: WebhookConfig;
}

export function tenantOf(res: Response): TenantPrincipal {
  const p = ctxOf(res).principal;
  // routePolicy admits only tenant principals to tenant routes; this guards a wiring mistake.
  if (p.kind !== 'tenant') throw new ApiError('forbidden', 'This route needs a tenant API key.');
  return p;
}

/** Tenant, actor and correlation id of a tenant request: the first argument of every write. */
export function actor(res: Response) {
  const ctx = ctxOf(res);
  return { tenantId: tenantOf(res).tenantId, actor: actorOf(ctx.principal), correlationId: ctx.correlationId };
}

/** The actor of a person's own act: also the person the credential is bound to (null: a service key). */
export function personActor(res: Response) {
  return { ...actor(res), personId: tenantOf(res).personId };
}

export function operatorActor(res: Response) {
  const ctx = ctxOf(res);
  return { actor: actorOf(ctx.principal), correlationId: ctx.correlationId };
}
