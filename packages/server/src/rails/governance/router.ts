import {
  contract,
  governanceApprovals,
  governanceBoardDecisions,
  governanceBoardMeetings,
  governanceConflicts,
  governanceDecisionRights,
  governanceDelegations,
  governanceSnapshots,
} from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { serveResource } from '../../kit.ts';
import { actor, personActor, type RailDeps, tenantOf } from '../deps.ts';
import * as governance from './service.ts';

export function governanceHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const approvals = serveResource(db, governanceApprovals, governance.approvalStore);
  const { record_minutes: recordMinutes, ...meetings } = serveResource(db, governanceBoardMeetings, governance.boardMeetingStore);
  const snapshots = serveResource(db, governanceSnapshots, governance.snapshotStore);
  // Decisions are a collection under a meeting: `/board-meetings/:id/decisions`.
  const decisions = serveResource(db, governanceBoardDecisions, governance.boardDecisionStore);
  return initServer().router(contract.governance, {
    raci: async ({ res }) => ({ status: 200, body: await governance.orgRaci(prisma, tenantOf(res).tenantId) }),
    decisionRights: serveResource(db, governanceDecisionRights, governance.decisionRightStore),
    approvals: {
      ...approvals,
      approve: async ({ params, body, res }) => ({
        status: 200,
        body: await governance.decideApproval(prisma, personActor(res), params.id, 'approve', body),
      }),
      reject: async ({ params, body, res }) => ({
        status: 200,
        body: await governance.decideApproval(prisma, personActor(res), params.id, 'reject', body),
      }),
    },
    boardMeetings: {
      ...meetings,
      recordMinutes,
      listDecisions: decisions.list,
      createDecision: decisions.create,
    },
    delegations: serveResource(db, governanceDelegations, governance.delegationStore),
    conflicts: serveResource(db, governanceConflicts, governance.conflictStore),
    snapshot: {
      list: snapshots.list,
      get: snapshots.get,
      create: async ({ body, res }) => ({ status: 201, body: await governance.createSnapshot(db, actor(res), body, res) }),
    },
  });
}
