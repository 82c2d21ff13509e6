import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import type { RailDeps } from './deps.ts';

export function dsarHandlers(_deps: RailDeps) {
  return initServer().router(contract.dsar, {});
}
