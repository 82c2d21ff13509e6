import { approvalChains, contract, stakeholderRoles, stakeholderUsers } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../kit.ts';
import * as stakeholders from '../services/stakeholders.ts';
import type { RailDeps } from './deps.ts';

export function stakeholdersHandlers({ db }: RailDeps) {
  return initServer().router(contract.stakeholders, {
    users: serveResource(db, stakeholderUsers, stakeholders.userStore),
    roles: serveResource(db, stakeholderRoles, stakeholders.roleStore),
    approvalChains: serveResource(db, approvalChains, stakeholders.approvalChainStore),
  });
}
