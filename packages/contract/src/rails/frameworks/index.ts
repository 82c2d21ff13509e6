import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
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

const Day = z.iso.date().meta({ examples: ['2027-12-02'] });
const ENTRY_KINDS = ['clause', 'control', 'question', 'obligation'] as const;
const EntryKind = z.enum(ENTRY_KINDS).meta({ description: 'Kind of dictionary entry (`clause`, `control`, `question`, `obligation`).' });
const EntryId = z.string().meta({ description: "The clause's reference or the control's, question's or obligation's id." });

export const AmendingAct = z
  .object({
    title: z.string().meta({ description: 'Title of the act that changed the law.' }),
    reference: z
      .string()
      .nullable()
      .meta({ description: 'Its official reference (`Regulation (EU) 2026/...`); null while none is published.' }),
    sourceUrl: z.string().nullable().meta({ description: 'Where its text is published.' }),
    adoptedOn: Day.nullable().meta({ description: 'Day it was adopted, signed or given assent; null when not known.' }),
    inForceFrom: Day.nullable().meta({ description: 'Day it entered into force; null when not known.' }),
    note: z.string().nullable().meta({ description: 'What is pending or unclear about it.' }),
  })
  .meta({ id: 'AmendingAct' });

const Sourced = {
  source: z.string().meta({ description: 'The provision that makes the change (of the amending act or the amended law).' }),
  sourceUrl: z.string().nullable().meta({ description: 'Where that provision is published.' }),
  note: z.string().nullable().meta({ description: 'Why, or what is unclear.' }),
};

export const DictionaryChange = z
  .object({
    op: z.enum(['add', 'amend', 'repeal', 'remove']).meta({
      description:
        '`add` a provision, `amend` some of its fields, `repeal` it (it stays, with the day it stopped applying), `remove` an entry that was an error.',
    }),
    kind: EntryKind,
    id: EntryId,
    fields: z.record(z.string(), z.unknown()).meta({
      description: 'The added entry, the amended fields, or `applicableUntil` and `replacedBy` of a repeal; empty for a removal.',
    }),
    ...Sourced,
  })
  .meta({ id: 'DictionaryChange' });

export const FrameworkVersion = z
  .object({
    object: objectField('svc.frameworks.version', OBJECT_EXAMPLE),
    framework: FrameworkId,
    version: z.string().meta({ description: 'The version (semver).' }),
    dictionaryVersion: DictionaryVersion,
    basedOn: DictionaryVersion.nullable().meta({ description: 'The version this one amends; null for the first.' }),
    publishedAt: Day.meta({ description: 'Day this dictionary version was published.' }),
    lawFrom: Day.meta({
      description:
        'Day from which this version states the law: the amending act’s entry into force, else the day the version was published.',
    }),
    contentHash: z.string().meta({ description: 'SHA-256 of the canonical dictionary content.' }),
    summary: z.string().nullable().meta({ description: 'What changed in law, in plain language; null for the first version.' }),
    amendingAct: AmendingAct.nullable().meta({ description: 'The act that made this version; null for the first.' }),
    changes: z
      .array(DictionaryChange)
      .meta({ description: 'Every change against `basedOn`, each with its source; empty for the first version.' }),
  })
  .meta({
    id: 'FrameworkVersion',
    examples: [
      {
        object: 'svc.frameworks.version',
        framework: 'eu-ai-act',
        version: '1.1.0',
        dictionaryVersion: 'eu-ai-act@1.1.0',
        basedOn: 'eu-ai-act@1.0.0',
        publishedAt: '2026-11-29',
        lawFrom: '2026-07-30',
        contentHash: 'sha256:5f2c7a…',
        summary: 'High-risk obligations move to 2 December 2027 (Annex III) and 2 August 2028 (Annex I).',
        amendingAct: {
          title: 'Digital Omnibus on AI',
          reference: null,
          sourceUrl: null,
          adoptedOn: '2026-06-29',
          inForceFrom: null,
          note: 'Official Journal reference pending.',
        },
        changes: [
          {
            op: 'amend',
            kind: 'obligation',
            id: 'AIA-OBL-020',
            fields: { applicableFrom: '2027-12-02' },
            source: 'Digital Omnibus on AI, amending Art. 113 of Regulation (EU) 2024/1689',
            sourceUrl: null,
            note: null,
          },
        ],
      },
    ],
  });

const FieldChange = z
  .object({
    field: z.string().meta({ description: 'Name of the field.' }),
    before: z.unknown().meta({ description: 'Its value in `from`.' }),
    after: z.unknown().meta({ description: 'Its value in `to`.' }),
  })
  .meta({ id: 'FieldChange' });

export const DiffEntry = z
  .object({
    kind: EntryKind,
    id: EntryId,
    change: z
      .enum(['added', 'amended', 'repealed', 'removed'])
      .meta({ description: 'What happened to the entry between the two versions.' }),
    title: z.string().nullable().meta({ description: 'Title (or text) of the entry, from `to` where it exists.' }),
    fields: z.array(FieldChange).meta({ description: 'Fields whose value differs; empty for an added or removed entry.' }),
    sources: z
      .array(z.object({ version: z.string().meta({ description: 'The version whose changelog states it.' }), ...Sourced }))
      .meta({ description: 'The changelog entries behind the change, for versions between `from` and `to`.' }),
  })
  .meta({ id: 'FrameworkDiffEntry' });

const ChangeCounts = z
  .object({
    added: z.int().meta({ description: 'Entries added.' }),
    amended: z.int().meta({ description: 'Entries amended.' }),
    repealed: z.int().meta({ description: 'Entries repealed (kept, with the day they stopped applying).' }),
    removed: z.int().meta({ description: 'Entries withdrawn as errors.' }),
  })
  .meta({ description: 'Entries per kind of change.' });

export const FrameworkDiff = z
  .object({
    object: objectField('svc.frameworks.diff', OBJECT_EXAMPLE),
    framework: FrameworkId,
    from: DictionaryVersion,
    to: DictionaryVersion,
    counts: ChangeCounts,
    entries: z.array(DiffEntry).meta({ description: 'Every entry that differs, clauses first, then controls, questions and obligations.' }),
  })
  .meta({ id: 'FrameworkDiff' });

export const DiffQuery = z.object({
  from: z
    .string()
    .regex(/^\d+\.\d+\.\d+$/)
    .meta({ description: 'Version to compare from.', examples: ['1.0.0'] }),
  to: z
    .string()
    .regex(/^\d+\.\d+\.\d+$/)
    .optional()
    .meta({ description: 'Version to compare to; the latest when absent.', examples: ['1.1.0'] }),
});

export const FrameworkObligation = z
  .object({
    object: objectField('svc.frameworks.obligation', OBJECT_EXAMPLE),
    id: z.string().meta({ description: 'Id of the obligation, stable across versions.' }),
    framework: FrameworkId,
    dictionaryVersion: DictionaryVersion,
    title: Title,
    description: Description,
    clauseRef: z.string().meta({ description: 'The clause that imposes it.' }),
    actor: z.string().meta({ description: 'Who bears it (`provider`, `deployer`, `controller`, ...).' }),
    applicableFrom: Day.meta({ description: 'First day it applies.' }),
    applicableUntil: Day.nullable().meta({ description: 'First day it no longer applies (repealed); null while it applies.' }),
    replacedBy: z.array(z.string()).meta({ description: 'Obligations that replaced it, in the same version.' }),
    asOf: Day.meta({ description: 'The day the status is for.' }),
    status: z.enum(['applicable', 'not_yet_applicable', 'no_longer_applicable']).meta({ description: 'Whether it applies on `asOf`.' }),
  })
  .meta({ id: 'FrameworkObligation' });

export const ObligationsQuery = PaginationQuery.extend({
  asOf: Day.optional().meta({
    description: 'Day to read the law as of (default today): without a version in the id, the version in force that day.',
  }),
  status: z
    .enum(['applicable', 'not_yet_applicable', 'no_longer_applicable'])
    .optional()
    .meta({ description: 'Only obligations with this status.' }),
});

export const ChangeImpact = z
  .object({
    obligations: z.array(z.string()).meta({ description: "Ids of the tenant's obligations the change touches." }),
    controls: z.array(z.string()).meta({ description: 'Changed controls the tenant holds evidence or attestations for.' }),
    assessments: z.array(z.string()).meta({ description: 'Open assessments of the framework whose questions the change touches.' }),
    systems: z.array(z.string()).meta({ description: 'Systems of those assessments and of that evidence.' }),
  })
  .meta({ id: 'ChangeImpact' });

export const FrameworkVersionNotice = z
  .object({
    object: objectField('svc.frameworks.version_notice', OBJECT_EXAMPLE),
    framework: FrameworkId,
    activationId: prefixedId('act', exampleId('act')),
    pinned: DictionaryVersion.meta({ description: 'The version the tenant is pinned to (and keeps).' }),
    available: DictionaryVersion.meta({ description: 'The new version.' }),
    summary: z.string().nullable().meta({ description: 'What changed in law.' }),
    amendingAct: AmendingAct.nullable().meta({ description: 'The act behind the new version.' }),
    counts: ChangeCounts,
    impact: ChangeImpact,
  })
  .meta({ id: 'FrameworkVersionNotice' });

export const FrameworkRepinBody = z
  .strictObject({
    version: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/)
      .meta({ description: 'Version to pin the activation to.', examples: ['1.1.0'] }),
    dryRun: z.boolean().default(false).meta({ description: 'Show the diff and impact without changing anything.' }),
  })
  .meta({ id: 'RepinFrameworkRequest', examples: [{ version: '1.1.0', dryRun: true }] });

export const FrameworkRepin = z
  .object({
    object: objectField('svc.frameworks.repin', OBJECT_EXAMPLE),
    framework: FrameworkId,
    from: DictionaryVersion,
    to: DictionaryVersion,
    dryRun: z.boolean().meta({ description: 'True when nothing was changed.' }),
    diff: FrameworkDiff,
    impact: ChangeImpact,
    obligations: z
      .object({
        added: z.int().meta({ description: 'Obligations derived from provisions the tenant did not have.' }),
        updated: z.int().meta({ description: 'Obligations rewritten to the new text or date.' }),
        withdrawn: z.int().meta({ description: 'Obligations marked `not_applicable`: repealed or removed provisions.' }),
      })
      .meta({ description: "What the repin did (or would do) to the tenant's obligations." }),
    activation: Activation.nullable().meta({ description: 'The activation after the repin; null on a dry run.' }),
  })
  .meta({ id: 'FrameworkRepin' });

const IdParams = z.object({ id: FrameworkRef });
const ById = { pathParams: IdParams };
/** The policy of the rail's reads: reference data, the same for every tenant. */
const { read: READ, changes } = policyOf('frameworks');

export const frameworksRouter = c.router(
  {
    list: get('', { query: PaginationQuery }, listOf(Framework), READ).doc(
      'List framework dictionaries',
      'Returns the framework dictionaries this service ships (EU AI Act, ISO/IEC 42001, ...), each with its latest version and counts of clauses, controls and questions. Reference data, the same for every tenant; paginated by `limit` and `cursor`.',
    ),
    get: get('/:id', ById, Framework, meta({ ...READ, source: { object: 'svc.frameworks.activation', params: { id: 'framework' } } })).doc(
      'Get one framework dictionary',
      'Returns one framework dictionary by its id (`eu-ai-act`): publisher, versions, licence, source URL and counts. 404 `not_found` for an unknown id.',
    ),
    clauses: get('/:id/clauses', { ...ById, query: PaginationQuery }, listOf(Clause), READ).doc(
      'List the clauses of a framework',
      "Returns the clauses (articles, annexes, sections) of the framework's latest version in document order, each with its reference, parent reference and text summary. Paginated by `limit` and `cursor`.",
    ),
    controls: get(
      '/:id/controls',
      {
        ...ById,
        query: PaginationQuery.extend({ category: z.string().max(64).optional().meta({ description: 'Only controls of this category.' }) }),
      },
      listOf(Control),
      READ,
    ).doc(
      'List the controls of a framework',
      'Returns the controls of the framework: what an organisation implements to satisfy one or more clauses, with the clause references each control covers. Evidence and attestations cite these control ids.',
    ),
    questions: get(
      '/:id/questions',
      {
        ...ById,
        query: PaginationQuery.extend({
          controlId: z.string().max(64).optional().meta({ description: 'Only questions that answer this control.' }),
        }),
      },
      listOf(Question),
      READ,
    ).doc(
      'List the assessment questions of a framework',
      'Returns the questions an assessment of this framework asks, with the control each answers and the expected answer type.',
    ),
    versions: get('/:id/versions', { ...ById, query: PaginationQuery }, listOf(FrameworkVersion), READ).doc(
      'List the versions of a framework with their changelogs',
      'Returns every version of the dictionary, newest first: the amending act, the day from which it states the law, and each change (added, amended, repealed or removed provisions) with its legal source. Paginated by `limit` and `cursor` (a version).',
    ),
    diff: get('/:id/diff', { ...ById, query: DiffQuery }, FrameworkDiff, READ).doc(
      'Compare two versions of a framework',
      'Returns every clause, control, question and obligation that differs between two versions (either order), field by field, with the changelog sources behind each change. 404 `not_found` for an unknown version.',
    ),
    obligations: get('/:id/obligations', { ...ById, query: ObligationsQuery }, listOf(FrameworkObligation), READ).doc(
      'List the obligations of a framework as of a day',
      'Returns the obligations the dictionary states, each with whether it applies on `asOf` (default today). Without a version in the id, the version in force on `asOf` answers: the law as it stood that day, before or after an amendment. Paginated by `limit` and `cursor`.',
    ),
    repin: post(
      '/:id/repin',
      { ...ById, body: FrameworkRepinBody },
      FrameworkRepin,
      changes('frameworks:activate', 'framework.repinned'),
    ).doc(
      "Move the tenant's activation to another version",
      "Shows the diff between the pinned version and `version` and what it touches of the tenant's records; unless `dryRun`, moves the activation and its obligations to that version (added obligations are derived, amended ones updated, repealed or removed ones marked `not_applicable`) in one audited transaction. Assessments and decisions stay on the version they were made with. 404 `not_found` when the framework is not active for the tenant.",
    ),
    activate: post(
      '/:id/activate',
      { ...ById, body: ActivateBody.optional() },
      { 200: Activation, 201: Activation },
      changes('frameworks:activate', 'framework.activated'),
    ).doc(
      'Activate a framework for the tenant',
      'Idempotent: the first call activates the framework and derives its obligations (201); later calls return the same activation (200).',
    ),
  },
  { pathPrefix: '/v1/frameworks', commonResponses: commonErrorResponses },
);

/** Event types the frameworks rail emits. */
export const frameworksEvents = [
  eventType('framework.activated', 'A framework was activated; its obligations were derived.', Activation),
  eventType(
    'framework.version_available',
    'A new version of an activated framework was published; the tenant stays pinned. Names what the change touches of its records.',
    FrameworkVersionNotice,
  ),
  eventType('framework.repinned', "The tenant's activation moved to another version of the framework.", FrameworkRepin),
];
