import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrorResponses } from '../../platform/errors.ts';
import { meta } from '../../platform/meta.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../../shared/common.ts';
import { EXAMPLE_AT, EXAMPLE_KEY, exampleId, objectField } from '../../shared/records.ts';

const c = initContract();

/** `<dictionary>` or `<dictionary>@<version>`; without a version the latest is meant. */
export const FrameworkRef = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}(@\d+\.\d+\.\d+)?$/)
  .meta({ description: 'Framework id, optionally pinned: `eu-ai-act` or `eu-ai-act@1.0.0`.', examples: ['eu-ai-act'] });

const DictionaryVersion = z.string().meta({ description: '`<dictionary>@<version>` of the content.', examples: ['eu-ai-act@1.0.0'] });

/** The record the `object` field descriptions of this rail name as their example. */
const OBJECT_EXAMPLE = 'svc.compliance.assessment';
/** `framework` of the records that belong to one dictionary. */
const FrameworkId = z.string().meta({ description: 'Id of the framework dictionary (`eu-ai-act`).' });
const Title = z.string().meta({ description: 'Full title.' });
const Description = z.string().meta({ description: 'What the framework regulates or the control requires, in plain language.' });

/** `framework` and `dictionaryVersion` of the examples' records: the EU AI Act, version 1.0.0. */
const EXAMPLE_DICTIONARY = { framework: 'eu-ai-act', dictionaryVersion: 'eu-ai-act@1.0.0' };

export const Framework = z
  .object({
    object: objectField('svc.frameworks.framework', OBJECT_EXAMPLE),
    id: z.string().meta({ description: 'Id of the framework dictionary (`eu-ai-act`), stable across versions.' }),
    version: z.string().meta({ description: 'Version of the dictionary the record comes from.' }),
    dictionaryVersion: DictionaryVersion,
    versions: z.array(z.string()).meta({ description: 'Every version available, oldest first.' }),
    title: Title,
    shortTitle: z.string().meta({ description: 'Short name for lists (`EU AI Act`).' }),
    kind: z
      .enum(['regulation', 'standard', 'framework'])
      .meta({ description: 'Kind of framework (regulation, standard, ...; see the enum).' }),
    publisher: z.string().meta({ description: 'Body that published the framework.' }),
    jurisdiction: z.string().meta({ description: '`<region>/<country>` whose law applies, lowercase (`eu/de`).' }),
    description: Description,
    publishedAt: z.string().meta({ description: 'Publication date of the version (ISO 8601).' }),
    sourceUrl: z.string().nullable().meta({ description: 'Where the official text is published.' }),
    license: z.string().meta({ description: 'Licence of the dictionary content.' }),
    contentHash: z.string().meta({ description: 'SHA-256 of the canonical dictionary content.' }),
    counts: z
      .object({
        clauses: z.int().meta({ description: 'Clauses in the latest version.' }),
        controls: z.int().meta({ description: 'Controls mapped to the clauses.' }),
        questions: z.int().meta({ description: 'Assessment questions.' }),
        obligations: z.int().meta({ description: 'Obligations an activation derives.' }),
      })
      .meta({ description: 'Sizes of the dictionary.' }),
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
    object: objectField('svc.frameworks.clause', OBJECT_EXAMPLE),
    framework: FrameworkId,
    dictionaryVersion: DictionaryVersion,
    ref: z.string().meta({ description: 'Reference of the clause in the framework (`art-9`).' }),
    title: Title,
    summary: z.string().meta({ description: 'Plain-language summary of the clause.' }),
    parentRef: z.string().nullable().meta({ description: 'Reference of the enclosing clause; null at the top level.' }),
  })
  .meta({
    id: 'Clause',
    examples: [
      {
        object: 'svc.frameworks.clause',
        ...EXAMPLE_DICTIONARY,
        ref: 'art-9',
        title: 'Risk management system',
        summary: 'Providers of high-risk AI systems run a documented, iterative risk-management process.',
        parentRef: null,
      },
    ],
  });

export const Control = z
  .object({
    object: objectField('svc.frameworks.control', OBJECT_EXAMPLE),
    id: z.string().meta({ description: 'Id of the control (`AIA-RMS-01`), stable across versions.' }),
    framework: FrameworkId,
    dictionaryVersion: DictionaryVersion,
    title: Title,
    description: Description,
    category: z.string().meta({ description: 'Group of the control (`governance`, `data`, `transparency`, ...).' }),
    clauseRefs: z.array(z.string()).meta({ description: 'References of the clauses the control satisfies.' }),
  })
  .meta({
    id: 'Control',
    examples: [
      {
        object: 'svc.frameworks.control',
        id: 'AIA-RMS-01',
        ...EXAMPLE_DICTIONARY,
        title: 'Risk-management system established',
        description: 'A risk-management process covers the whole lifecycle of each high-risk AI system.',
        category: 'risk-management',
        clauseRefs: ['art-9'],
      },
    ],
  });

export const Question = z
  .object({
    object: objectField('svc.frameworks.question', OBJECT_EXAMPLE),
    id: z.string().meta({ description: 'Id of the question, stable across versions.' }),
    framework: FrameworkId,
    dictionaryVersion: DictionaryVersion,
    text: z.string().meta({ description: 'Wording of the question.' }),
    controlId: z.string().meta({ description: "Id of the control, as in the framework's controls list." }),
    clauseRef: z.string().nullable().meta({ description: 'Reference of the clause in the framework (`art-9`), as in the clauses list.' }),
    answerType: z
      .enum(['yes_no', 'text', 'scale', 'evidence'])
      .meta({ description: 'Kind of answer expected (`yes_no`, ...; see the enum).' }),
  })
  .meta({
    id: 'Question',
    examples: [
      {
        object: 'svc.frameworks.question',
        id: 'AIA-Q-001',
        ...EXAMPLE_DICTIONARY,
        text: 'Is a documented risk-management system in place for each high-risk AI system?',
        controlId: 'AIA-RMS-01',
        clauseRef: 'art-9',
        answerType: 'yes_no',
      },
    ],
  });

export const Activation = z
  .object({
    object: objectField('svc.frameworks.activation', OBJECT_EXAMPLE),
    id: prefixedId('act', exampleId('act')),
    framework: FrameworkId,
    dictionaryVersion: DictionaryVersion,
    activatedAt: Timestamp.meta({ description: 'When the tenant activated the framework (ISO 8601 UTC); null when not active.' }),
    activatedBy: z.string().meta({ description: 'Id of the API key that activated it.' }),
    obligations: z.int().meta({ description: 'Obligations the activation derived for the tenant.' }),
    alreadyActive: z.boolean().meta({ description: 'True when the framework was active before this call.' }),
  })
  .meta({
    id: 'Activation',
    examples: [
      {
        object: 'svc.frameworks.activation',
        id: exampleId('act'),
        ...EXAMPLE_DICTIONARY,
        activatedAt: EXAMPLE_AT,
        activatedBy: EXAMPLE_KEY,
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
/** The policy of the rail's reads: reference data, the same for every tenant. */
const READ = meta({ auth: 'tenant', rail: 'frameworks', permission: 'frameworks:read', mutating: false });

export const frameworksRouter = c.router(
  {
    list: {
      method: 'GET',
      path: '',
      query: PaginationQuery,
      responses: { 200: listOf(Framework) },
      summary: 'List framework dictionaries',
      description:
        'Returns the framework dictionaries this service ships (EU AI Act, ISO/IEC 42001, ...), each with its latest version and counts of clauses, controls and questions. Reference data, the same for every tenant; paginated by `limit` and `cursor`.',
      metadata: READ,
    },
    get: {
      method: 'GET',
      path: '/:id',
      pathParams: IdParams,
      responses: { 200: Framework },
      summary: 'Get one framework dictionary',
      description:
        'Returns one framework dictionary by its id (`eu-ai-act`): publisher, versions, licence, source URL and counts. 404 `not_found` for an unknown id.',
      metadata: meta({ ...READ, source: { object: 'svc.frameworks.activation', params: { id: 'framework' } } }),
    },
    clauses: {
      method: 'GET',
      path: '/:id/clauses',
      pathParams: IdParams,
      query: PaginationQuery,
      responses: { 200: listOf(Clause) },
      summary: 'List the clauses of a framework',
      description:
        "Returns the clauses (articles, annexes, sections) of the framework's latest version in document order, each with its reference, parent reference and text summary. Paginated by `limit` and `cursor`.",
      metadata: READ,
    },
    controls: {
      method: 'GET',
      path: '/:id/controls',
      pathParams: IdParams,
      query: PaginationQuery.extend({ category: z.string().max(64).optional().meta({ description: 'Only controls of this category.' }) }),
      responses: { 200: listOf(Control) },
      summary: 'List the controls of a framework',
      description:
        'Returns the controls of the framework: what an organisation implements to satisfy one or more clauses, with the clause references each control covers. Evidence and attestations cite these control ids.',
      metadata: READ,
    },
    questions: {
      method: 'GET',
      path: '/:id/questions',
      pathParams: IdParams,
      query: PaginationQuery.extend({
        controlId: z.string().max(64).optional().meta({ description: 'Only questions that answer this control.' }),
      }),
      responses: { 200: listOf(Question) },
      summary: 'List the assessment questions of a framework',
      description:
        'Returns the questions an assessment of this framework asks, with the control each answers and the expected answer type.',
      metadata: READ,
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
