import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import type { RailDeps } from './deps.ts';

export function selfAuditHandlers(_deps: RailDeps) {
  return initServer().router(contract.self_audit, {});
}
