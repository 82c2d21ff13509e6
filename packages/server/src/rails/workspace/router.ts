import { contract, workspacePrincipals, workspaces, workspaceTeams } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import type { Response } from 'express';
import { serveResource } from '../../kit.ts';
import type { WorkspaceCaller } from '../../platform/workspace-access.ts';
import { actor, type RailDeps, tenantOf } from '../deps.ts';
import * as workspace from './service.ts';

/** The request's actor and the credential facts the workspace policy reads (its key, role and person). */
function caller(res: Response): WorkspaceCaller {
  const p = tenantOf(res);
  return { ...actor(res), keyId: p.keyId, role: p.role, personId: p.personId };
}

export function workspaceHandlers({ db }: RailDeps) {
  const { prisma } = db;
  const principals = serveResource(db, workspacePrincipals, workspace.principalStore);
  return initServer().router(contract.workspace, {
    ...serveResource(db, workspaces, workspace.workspaceStore),
    // Principals and teams are collections under the workspace, served by the kit with the
    // workspace's own policy (the caller's role there) on the workspace found or locked.
    principals: {
      list: principals.list,
      add: principals.create,
      revoke: async ({ params, body, res }) => ({
        status: 200,
        body: await workspace.revokePrincipal(prisma, caller(res), params.id, params.principal, body?.reason),
      }),
    },
    teams: serveResource(db, workspaceTeams, workspace.teamStore),
  });
}
