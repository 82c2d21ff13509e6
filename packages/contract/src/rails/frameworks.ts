import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { commonErrorResponses } from '../errors.ts';
import { meta } from '../meta.ts';
import { eventType } from '../webhook-events.ts';

const c = initContract();

/** `<dictionary>` or `<dictionary>@<version>`; without a version the latest is meant. */
export const FrameworkRef = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}(@\d+\.\d+\.\d+)?$/)
  .meta({ description: 'Framework id, optionally pinned: `eu-ai-act` or `eu-ai-act@1.0.0`.', examples: ['eu-ai-act'] });

const DictionaryVersion = z.string().meta({ description: '`<dictionary>@<version>` of the content.', examples: ['eu-ai-act@1.0.0'] });

export const Framework = z
  .object({
    object: z.literal('svc.frameworks.framework'),
    id: z.string(),
    version: z.string(),
    dictionaryVersion: DictionaryVersion,
    versions: z.array(z.string()),
    title: z.string(),
    shortTitle: z.string(),
    kind: z.enum(['regulation', 'standard', 'framework']),
    publisher: z.string(),
    jurisdiction: z.string(),
    description: z.string(),
    publishedAt: z.string(),
    sourceUrl: z.string().nullable(),
    license: z.string(),
    contentHash: z.string().meta({ description: 'SHA-256 of the canonical dictionary content.' }),
    counts: z.object({ clauses: z.int(), controls: z.int(), questions: z.int(), obligations: z.int() }),
  })
  .meta({
    id: 'Framework',
    examples: [
      {
        object: 'svc.frameworks.framework',
        id: 'eu-ai-act',
        version: '1.0.0',
        dictionaryVersion: 'eu-ai-act@1.0.0',
        versions: ['1.0.0'],
        title: 'Regulation (EU) 2024/1689 (Artificial Intelligence Act)',
        shortTitle: 'EU AI Act',
        kind: 'regulation',
        publisher: 'European Union',
        jurisdiction: 'eu',
        description: 'Harmonised rules for placing AI systems on the EU market.',
        publishedAt: '2024-07-12',
        sourceUrl: 'https://eur-lex.europa.eu/eli/reg/2024/1689/oj',
        license: 'EU legal texts may be reused with acknowledgement of the source.',
        contentHash: 'sha256:5f2c7a…',
        counts: { clauses: 80, controls: 42, questions: 48, obligations: 90 },
      },
    ],
  });

export const Clause = z
  .object({
    object: z.literal('svc.frameworks.clause'),
    framework: z.string(),
    dictionaryVersion: DictionaryVersion,
    ref: z.string(),
    title: z.string(),
    summary: z.string(),
    parentRef: z.string().nullable(),
  })
  .meta({
    id: 'Clause',
    examples: [
      {
        object: 'svc.frameworks.clause',
        framework: 'eu-ai-act',
        dictionaryVersion: 'eu-ai-act@1.0.0',
        ref: 'art-9',
        title: 'Risk management system',
        summary: 'Providers of high-risk AI systems run a documented, iterative risk-management process.',
        parentRef: null,
      },
    ],
  });

export const Control = z
  .object({
    object: z.literal('svc.frameworks.control'),
    id: z.string(),
    framework: z.string(),
    dictionaryVersion: DictionaryVersion,
    title: z.string(),
    description: z.string(),
    category: z.string(),
    clauseRefs: z.array(z.string()),
  })
  .meta({
    id: 'Control',
    examples: [
      {
        object: 'svc.frameworks.control',
        id: 'AIA-RMS-01',
        framework: 'eu-ai-act',
        dictionaryVersion: 'eu-ai-act@1.0.0',
        title: 'Risk-management system established',
        description: 'A risk-management process covers the whole lifecycle of each high-risk AI system.',
        category: 'risk-management',
        clauseRefs: ['art-9'],
      },
    ],
  });

export const Question = z
  .object({
    object: z.literal('svc.frameworks.question'),
    id: z.string(),
    framework: z.string(),
    dictionaryVersion: DictionaryVersion,
    text: z.string(),
    controlId: z.string(),
    clauseRef: z.string().nullable(),
    answerType: z.enum(['yes_no', 'text', 'scale', 'evidence']),
  })
  .meta({
    id: 'Question',
    examples: [
      {
        object: 'svc.frameworks.question',
        id: 'AIA-Q-001',
        framework: 'eu-ai-act',
        dictionaryVersion: 'eu-ai-act@1.0.0',
        text: 'Is a documented risk-management system in place for each high-risk AI system?',
        controlId: 'AIA-RMS-01',
        clauseRef: 'art-9',
        answerType: 'yes_no',
      },
    ],
  });

export const Activation = z
  .object({
    object: z.literal('svc.frameworks.activation'),
    id: prefixedId('act', 'act_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    framework: z.string(),
    dictionaryVersion: DictionaryVersion,
    activatedAt: Timestamp,
    activatedBy: z.string(),
    obligations: z.int().meta({ description: 'Obligations the activation derived for the tenant.' }),
    alreadyActive: z.boolean().meta({ description: 'True when the framework was active before this call.' }),
  })
  .meta({
    id: 'Activation',
    examples: [
      {
        object: 'svc.frameworks.activation',
        id: 'act_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        framework: 'eu-ai-act',
        dictionaryVersion: 'eu-ai-act@1.0.0',
        activatedAt: '2026-11-22T09:30:00.000Z',
        activatedBy: 'key_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        obligations: 90,
        alreadyActive: false,
      },
    ],
  });

export const ActivateBody = z
  .strictObject({
    version: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/)
      .optional()
      .meta({ description: 'Version to activate; the latest when absent.', examples: ['1.0.0'] }),
  })
  .meta({ id: 'ActivateFrameworkRequest', examples: [{}] });

const IdParams = z.object({ id: FrameworkRef });

export const frameworksRouter = c.router(
  {
    list: {
      method: 'GET',
      path: '',
      query: PaginationQuery,
      responses: { 200: listOf(Framework) },
      summary: 'List framework dictionaries',
      metadata: meta({ auth: 'tenant', rail: 'frameworks', permission: 'frameworks:read', mutating: false }),
    },
    get: {
      method: 'GET',
      path: '/:id',
      pathParams: IdParams,
      responses: { 200: Framework },
      summary: 'Get one framework dictionary',
      metadata: meta({ auth: 'tenant', rail: 'frameworks', permission: 'frameworks:read', mutating: false }),
    },
    clauses: {
      method: 'GET',
      path: '/:id/clauses',
      pathParams: IdParams,
      query: PaginationQuery,
      responses: { 200: listOf(Clause) },
      summary: 'List the clauses of a framework',
      metadata: meta({ auth: 'tenant', rail: 'frameworks', permission: 'frameworks:read', mutating: false }),
    },
    controls: {
      method: 'GET',
      path: '/:id/controls',
      pathParams: IdParams,
      query: PaginationQuery.extend({ category: z.string().max(64).optional() }),
      responses: { 200: listOf(Control) },
      summary: 'List the controls of a framework',
      metadata: meta({ auth: 'tenant', rail: 'frameworks', permission: 'frameworks:read', mutating: false }),
    },
    questions: {
      method: 'GET',
      path: '/:id/questions',
      pathParams: IdParams,
      query: PaginationQuery.extend({ controlId: z.string().max(64).optional() }),
      responses: { 200: listOf(Question) },
      summary: 'List the assessment questions of a framework',
      metadata: meta({ auth: 'tenant', rail: 'frameworks', permission: 'frameworks:read', mutating: false }),
    },
    activate: {
      method: 'POST',
      path: '/:id/activate',
      pathParams: IdParams,
      body: ActivateBody.optional(),
      responses: { 200: Activation, 201: Activation },
      summary: 'Activate a framework for the tenant',
      description:
        'Idempotent: the first call activates the framework and derives its obligations (201); later calls return the same activation (200).',
      metadata: meta({
        auth: 'tenant',
        rail: 'frameworks',
        permission: 'frameworks:activate',
        mutating: true,
        audit: 'framework.activated',
      }),
    },
  },
  { pathPrefix: '/v1/frameworks', commonResponses: commonErrorResponses },
);

/** Event types the frameworks rail emits. */
export const frameworksEvents = [eventType('framework.activated', 'A framework was activated; its obligations were derived.', Activation)];
