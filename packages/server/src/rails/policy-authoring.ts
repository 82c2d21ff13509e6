import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import type { RailDeps } from './deps.ts';

export function policyAuthoringHandlers(_deps: RailDeps) {
  return initServer().router(contract.policy_authoring, {});
}
