import { initContract } from '@ts-rest/core';
import { operatorRouter, systemRouter } from './operator.ts';
import { auditTrailRouter } from './rails/audit-trail.ts';
import { complianceRouter } from './rails/compliance.ts';
import { eventsRouter } from './rails/events.ts';
import { frameworksRouter } from './rails/frameworks.ts';
import { reconciliationRouter } from './rails/reconciliation.ts';
import { webhooksRouter } from './rails/webhooks.ts';

const c = initContract();

/**
 * The whole API. Each key is a namespace of the SDK and a group of Express routes; rails are keyed
 * by their catalogue id. Adding a rail: one file in rails/, one line here.
 */
export const contract = c.router({
  compliance: complianceRouter,
  frameworks: frameworksRouter,
  audit_trail: auditTrailRouter,
  events: eventsRouter,
  reconciliation: reconciliationRouter,
  webhooks: webhooksRouter,
  operator: operatorRouter,
  system: systemRouter,
});

export type Contract = typeof contract;
