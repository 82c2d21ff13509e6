import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { del, get, policyOf, post, put, stateful } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { ASSESSMENT_TYPE_IDS } from '../../shared/assessment-types.ts';
import { ControlRef, listOf, PaginationQuery } from '../../shared/common.ts';
import {
  AnswerBody,
  AnswerVersion,
  AssessmentId,
  AssessmentQuestion,
  AssessmentQuestionDue,
  AssessmentQuestionParams,
  AssessmentRemediation,
  AssessmentResults,
  AssignBody,
  QuestionListQuery,
  RemediateAssessmentBody,
  ReturnAssessmentBody,
  SubmitAssessmentBody,
} from './assessment-work.ts';
import { ASSESSMENT_STATUSES, OBLIGATION_STATUSES, STATUS, SUBJECT_TYPES, SYSTEM_ID, SystemId } from './fields.ts';
import {
  Assessment,
  Attestation,
  CreateAssessmentBody,
  CreateAttestationBody,
  CreateEvidenceBody,
  Evidence,
  Obligation,
  TenantFramework,
} from './schemas.ts';

/** The compliance rail's resources and hand-declared routes, its router and the event types it emits. */

const c = initContract();

const { read, write } = policyOf('compliance');

/** Activating the EU AI Act brings the controls and obligations the examples cite. */
const activateEuAiAct = { method: 'POST', path: '/v1/frameworks/eu-ai-act/activate', body: {} } as const;

export const assessments = resource({
  rail: 'compliance',
  path: 'assessments',
  name: 'assessment',
  label: { one: 'assessment', many: 'assessments' },
  idPrefix: 'asm',
  record: Assessment,
  statusField: 'status',
  filters: {
    status: z.enum(ASSESSMENT_STATUSES).optional().meta({ description: STATUS }),
    type: z.enum(ASSESSMENT_TYPE_IDS).optional().meta({ description: 'Only assessments of this kind.' }),
    systemId: SystemId.optional().meta({ description: SYSTEM_ID }),
  },
  create: {
    body: CreateAssessmentBody,
    summary: 'Create an assessment',
    description:
      'Creates a `draft` assessment with completion 0 and the stages and questions of its type, drawn from the recipe of the type and the tenant’s pinned dictionary version (the activated one, else the latest); a `gap-analysis` asks one requirement per control of the activated `framework` it names, with the dictionary’s questions for each control.',
  },
  transitions: {
    start: {
      from: ['draft'],
      to: 'in_progress',
      summary: 'Start an assessment',
      description: 'Marks the assessment in progress before its first answer (the first answer does it too).',
    },
    submit: {
      from: ['in_progress'],
      to: 'in_review',
      body: SubmitAssessmentBody.optional(),
      stateful: true,
      summary: 'Submit an assessment for review',
      description:
        'Every required question must be answered (422 listing those that are not, as `details`). Answers cannot change while it is in review. Emitted as `assessment.submitted`.',
      eventSummary: 'An assessment was submitted for review.',
    },
    send_back: {
      from: ['in_review'],
      to: 'in_progress',
      path: 'return',
      action: 'assessment.returned',
      grant: 'approve',
      body: ReturnAssessmentBody,
      stateful: true,
      summary: 'Return an assessment with comments',
      description:
        'Back to `in_progress` with a comment on each question named (each must be one of the assessment’s; 422 otherwise); the next answer to a question clears its comment. Emitted as `assessment.returned`.',
      eventSummary: 'An assessment was returned to its authors with comments.',
    },
    approve: {
      from: ['in_review'],
      to: 'approved',
      grant: 'approve',
      stateful: true,
      summary: 'Approve an assessment',
      description:
        'Four eyes: the approver is the person the API key acts for (a service key: 403), and never a person or key that answered any of its questions (403 `forbidden`). Freezes the assessment: `answersHash` is the SHA-256 of its answers and their evidence, and nothing of it changes again (`POST /revisions` starts a new revision from it). Emitted as `assessment.approved`.',
      eventSummary: 'An assessment was approved and frozen.',
    },
  },
});

const questionRead = {
  ...read,
  source: { object: 'svc.compliance.assessment_question', params: { id: 'assessmentId', key: 'key' } },
} as const;
const ByAssessment = { pathParams: z.object({ id: AssessmentId }) };
const ByQuestion = { pathParams: AssessmentQuestionParams };

/** The work inside an assessment: questions, answers, assignments, results and remediation. */
const assessmentWork = {
  questions: get(
    '/assessments/:id/questions',
    { ...ByAssessment, query: PaginationQuery.extend(QuestionListQuery.shape) },
    listOf(AssessmentQuestion),
    read,
  ).doc(
    'List an assessment’s questions',
    'The questions in order, each with its current answer, assignment and review comment, cursor-paginated; filters by stage, answered, required and assignee. Another tenant’s assessment: 404. Needs `compliance:read`.',
  ),
  question: get('/assessments/:id/questions/:key', ByQuestion, AssessmentQuestion, questionRead).doc(
    'Get one question of an assessment',
    'The question with its current answer. Needs `compliance:read`.',
  ),
  answer: put(
    '/assessments/:id/questions/:key/answer',
    { ...ByQuestion, body: AnswerBody },
    AssessmentQuestion,
    stateful(write('assessment.answered')),
  ).doc(
    'Answer a question (or change the answer)',
    'Stores a new version of the answer: the value must be of the question’s kind (422 on `value`), an `evidence` question needs evidence, a requirement other than compliant a justification in `notes`, and each evidence id must be a current evidence record of the tenant (422 on `evidenceIds.<n>`). A `draft` assessment moves to `in_progress`; stage statuses and completion follow. An assessment in review or approved: 409. The answerer is the person the key acts for, else the key. Emitted as `assessment.answered`.',
  ),
  clearAnswer: del(
    '/assessments/:id/questions/:key/answer',
    { pathParams: AssessmentQuestionParams, body: c.noBody() },
    AssessmentQuestion,
    stateful(write('assessment.answer_cleared')),
  ).doc(
    'Clear the answer to a question',
    'Records a `cleared` version; the question is unanswered again. An assessment in review or approved: 409. Emitted as `assessment.answer_cleared`.',
  ),
  assign: put(
    '/assessments/:id/questions/:key/assignment',
    { ...ByQuestion, body: AssignBody },
    AssessmentQuestion,
    stateful(write('assessment.question_assigned')),
  ).doc(
    'Assign a question to a person',
    'Assigns the question to an active person of the stakeholders rail (422 on `personId` otherwise), with an optional due date that the deadline sweep announces (`assessment.question_due` from three days before, `assessment.question_overdue` after); `personId: null` removes the assignment. An approved assessment: 409. Emitted as `assessment.question_assigned`.',
  ),
  answerHistory: get('/assessments/:id/questions/:key/answers', { ...ByQuestion, query: PaginationQuery }, listOf(AnswerVersion), read).doc(
    'The versions of an answer',
    'Every version of the question’s answer, newest first: who answered, changed, cleared or carried it, when, and what. Needs `compliance:read`.',
  ),
  results: get('/assessments/:id/results', ByAssessment, AssessmentResults, read).doc(
    'The results of an assessment',
    'Completion per stage and the required questions still open; for a gap analysis also the score per control, clause and framework and the gaps (`{ control, missing: [...] }`). Needs `compliance:read`.',
  ),
  remediate: post(
    '/assessments/:id/remediation',
    { ...ByAssessment, body: RemediateAssessmentBody },
    { 201: AssessmentRemediation },
    stateful(write('assessment.remediated')),
  ).doc(
    'Turn a gap analysis’s gaps into findings and remediations',
    'For an approved gap analysis: a self-audit finding (severity high for non-compliant, medium otherwise) and its remediation per gap, in one transaction; gaps that already have a finding from this assessment are skipped. Another type or not approved: 409. Emitted as `finding.created` and `remediation.created` per gap.',
  ),
  revise: post(
    '/assessments/:id/revisions',
    { ...ByAssessment, body: z.strictObject({}).optional() },
    { 201: Assessment },
    stateful(write('assessment.created')),
  ).doc(
    'Start a new revision of an approved assessment',
    'A new assessment (revision + 1, `previousId`) in progress with the same questions and the answers carried over (each a `carried` version). Only from an approved assessment that has no later revision: 409 otherwise. Emitted as `assessment.created`.',
  ),
} as const;

export const obligations = resource({
  rail: 'compliance',
  path: 'obligations',
  name: 'obligation',
  label: { one: 'obligation', many: 'obligations' },
  idPrefix: 'obl',
  record: Obligation,
  filters: {
    framework: z.string().max(64).optional().meta({ description: 'Id of the framework dictionary (`eu-ai-act`).' }),
    status: z.enum(OBLIGATION_STATUSES).optional().meta({ description: STATUS }),
    actor: z
      .string()
      .max(64)
      .optional()
      .meta({ description: 'Only obligations whose duty-bearer (provider, deployer, ...) is this value.' }),
  },
  setup: [activateEuAiAct],
});

export const evidence = resource({
  rail: 'compliance',
  path: 'evidence',
  name: 'evidence',
  label: { one: 'evidence record', many: 'evidence' },
  idPrefix: 'evd',
  record: Evidence,
  filters: { controlId: ControlRef.optional(), systemId: SystemId.optional() },
  filterFields: { controlId: 'controlIds[]' },
  create: {
    body: CreateEvidenceBody,
    action: 'evidence.uploaded',
    summary: 'Record evidence',
    description: 'Records artefact metadata and links it to controls of activated frameworks.',
    eventSummary: 'Evidence was recorded.',
  },
  setup: [activateEuAiAct],
});

export const attestations = resource({
  rail: 'compliance',
  path: 'attestations',
  name: 'attestation',
  label: { one: 'attestation', many: 'attestations' },
  idPrefix: 'att',
  record: Attestation,
  filters: {
    subjectType: z.enum(SUBJECT_TYPES).optional(),
    subjectId: z.string().max(64).optional(),
  },
  filterFields: { subjectType: 'subject.type', subjectId: 'subject.id' },
  create: {
    body: CreateAttestationBody,
    event: 'audit.attestation_created',
    grant: 'attest',
    summary: 'Attest a control or an assessment',
    eventSummary: 'Someone attested a control or an assessment.',
  },
  setup: [activateEuAiAct],
});

export const complianceRouter = railRouter('compliance', {
  frameworks: {
    list: get(
      '/frameworks',
      {
        query: PaginationQuery.extend({
          activated: z
            .enum(['true', 'false'])
            .optional()
            .meta({ description: '`true`: only frameworks the tenant has activated; `false`: only the others; absent: all.' }),
        }),
      },
      listOf(TenantFramework),
      read,
    ).doc(
      "List frameworks with the tenant's activation state",
      'Returns every framework dictionary with whether the calling tenant has activated it, the activated `<dictionary>@<version>` and when. `activated=true` or `false` keeps only activated or not activated frameworks. Needs `compliance:read`.',
    ),
  },
  assessments: { ...assessmentWork, ...assessments.routes },
  obligations: obligations.routes,
  evidence: evidence.routes,
  attestations: attestations.routes,
});

/** Event types the compliance rail emits. */
export const complianceEvents = [
  ...assessments.events,
  eventType('assessment.updated', 'An assessment changed.', Assessment),
  eventType('assessment.answered', 'A question of an assessment was answered or its answer changed.', AssessmentQuestion),
  eventType('assessment.answer_cleared', 'The answer to a question of an assessment was cleared.', AssessmentQuestion),
  eventType('assessment.question_assigned', 'A question of an assessment was assigned (or unassigned).', AssessmentQuestion),
  eventType('assessment.question_due', 'An assigned question is unanswered and due within three days.', AssessmentQuestionDue),
  eventType('assessment.question_overdue', 'An assigned question is unanswered past its due date.', AssessmentQuestionDue),
  eventType('assessment.remediated', 'A gap analysis’s gaps were turned into findings and remediations.', AssessmentRemediation),
  ...evidence.events,
  eventType('evidence.updated', 'Evidence changed.', Evidence),
  ...attestations.events,
];
