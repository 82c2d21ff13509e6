import type { Role, Tier } from '@svc/contract';
import type { Response } from 'express';
import type { Logger } from '../logger.ts';

export interface TenantPrincipal {
  kind: 'tenant';
  tenantId: string;
  tier: Tier;
  env: string;
  rateLimitPerSecond: number | null;
  monthlyQuota: number | null;
  keyId: string;
  role: Role;
  scopes: string[];
  /** The person of the stakeholders rail the key acts for; null for a service key. */
  personId: string | null;
}
export interface OperatorPrincipal {
  kind: 'operator';
  credentialId: string;
}
export interface Anonymous {
  kind: 'anonymous';
  /** Why the credential was refused, when one was sent. */
  rejection?: string;
}
export type Principal = TenantPrincipal | OperatorPrincipal | Anonymous;

/** Built once per request by the pipeline and read by every later step and handler. */
export interface RequestContext {
  correlationId: string;
  log: Logger;
  principal: Principal;
  /** Set when the route handler started; the idempotency layer stores only such responses. */
  handlerRan: boolean;
  /**
   * The Idempotency-Key this request claimed. `stored`: the handler already completed the record
   * with its response inside its own transaction (idempotency.ts), so nothing is left to write.
   */
  idempotency?: { scope: string; key: string; stored: boolean };
}

export function ctxOf(res: Response): RequestContext {
  return res.locals.ctx as RequestContext;
}

/** The actor string recorded in audit events. */
export function actorOf(p: Principal): string {
  if (p.kind === 'tenant') return p.keyId;
  if (p.kind === 'operator') return p.credentialId;
  return 'anonymous';
}
