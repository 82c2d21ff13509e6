import { contract } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { ctxOf } from '../../http/context.ts';
import { rotateSigningKey } from '../../platform/ledger/key-rotation.ts';
import { operatorActor, type RailDeps } from '../deps.ts';
import * as operator from './service.ts';

export function operatorHandlers({ db: { prisma } }: RailDeps) {
  return initServer().router(contract.operator, {
    listTenants: async ({ query }) => ({ status: 200, body: await operator.listTenants(prisma, query) }),
    createTenant: async ({ body, res }) => ({ status: 201, body: await operator.createTenant(prisma, operatorActor(res), body) }),
    listKeys: async ({ query }) => ({ status: 200, body: await operator.listKeys(prisma, query) }),
    createKey: async ({ body, res }) => ({ status: 201, body: await operator.createKey(prisma, operatorActor(res), body) }),
    rotateCredential: async ({ res }) => {
      const ctx = ctxOf(res);
      if (ctx.principal.kind !== 'operator') throw new Error('an operator route reached without an operator principal');
      return {
        status: 201,
        body: await operator.rotateOperatorCredential(prisma, { ...operatorActor(res), credentialId: ctx.principal.credentialId }),
      };
    },
    rotateSigningKey: async ({ res }) => ({ status: 201, body: await rotateSigningKey(prisma, operatorActor(res)) }),
    revokeKey: async ({ params, res }) => ({ status: 200, body: await operator.revokeKey(prisma, operatorActor(res), params.id) }),
  });
}
