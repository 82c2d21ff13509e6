import { assessments, attestations, contract, evidence, obligations, selfAuditFindings, selfAuditRemediations } from '@svc/contract';
import { initServer } from '@ts-rest/express';
import { createOf, serveResource } from '../../kit.ts';
import { personActor, type RailDeps, tenantOf } from '../deps.ts';
import { findingStore, remediationStore } from '../self-audit/service.ts';
import * as work from './assessment-work.ts';
import { assessmentStore } from './assessment-work.ts';
import * as compliance from './service.ts';

export function complianceHandlers({ db }: RailDeps) {
  // A remediated gap analysis makes its findings and remediations through the self-audit rail's creates.
  const creates: work.RemediationCreates = {
    finding: createOf(serveResource(db, selfAuditFindings, findingStore)),
    remediation: createOf(serveResource(db, selfAuditRemediations, remediationStore)),
  };
  return initServer().router(contract.compliance, {
    frameworks: {
      list: async ({ query, res }) => ({
        status: 200,
        body: await compliance.listTenantFrameworks(db, tenantOf(res).tenantId, query),
      }),
    },
    assessments: {
      ...serveResource(db, assessments, assessmentStore),
      questions: async ({ params, query, res }) => ({
        status: 200,
        body: await work.listQuestions(db.prisma, tenantOf(res).tenantId, params.id, query),
      }),
      question: async ({ params, res }) => ({
        status: 200,
        body: await work.getQuestion(db.prisma, tenantOf(res).tenantId, params.id, params.key),
      }),
      answer: async ({ params, body, res }) => ({
        status: 200,
        body: await work.answerQuestion(db.prisma, personActor(res), params.id, params.key, body),
      }),
      clearAnswer: async ({ params, res }) => ({
        status: 200,
        body: await work.answerQuestion(db.prisma, personActor(res), params.id, params.key, null),
      }),
      assign: async ({ params, body, res }) => ({
        status: 200,
        body: await work.assignQuestion(db.prisma, personActor(res), params.id, params.key, body),
      }),
      answerHistory: async ({ params, query, res }) => ({
        status: 200,
        body: await work.answerHistory(db.prisma, tenantOf(res).tenantId, params.id, params.key, query),
      }),
      results: async ({ params, res }) => ({ status: 200, body: await work.results(db.prisma, tenantOf(res).tenantId, params.id) }),
      remediate: async ({ params, body, res }) => ({
        status: 201,
        body: await work.remediate(db.prisma, personActor(res), params.id, body, creates),
      }),
      revise: async ({ params, res }) => ({ status: 201, body: await work.revise(db.prisma, personActor(res), params.id) }),
    },
    obligations: serveResource(db, obligations, compliance.obligationStore),
    evidence: serveResource(db, evidence, compliance.evidenceStore),
    attestations: serveResource(db, attestations, compliance.attestationStore),
  });
}
