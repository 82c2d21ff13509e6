import { approvalChains, contract, stakeholderAssignments, stakeholderRoles, stakeholderUsers } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { type RailDeps, tenantOf } from '../deps.ts';
import * as stakeholders from './service.ts';

export function stakeholdersHandlers({ db }: RailDeps) {
  return initServer().router(contract.stakeholders, {
    users: serveResource(db, stakeholderUsers, stakeholders.userStore),
    roles: serveResource(db, stakeholderRoles, stakeholders.roleStore),
    assignments: serveResource(db, stakeholderAssignments, stakeholders.assignmentStore),
    raci: async ({ query, res }) => ({ status: 200, body: await stakeholders.raciChart(db.prisma, tenantOf(res).tenantId, query) }),
    approvalChains: serveResource(db, approvalChains, stakeholders.approvalChainStore),
  });
}
