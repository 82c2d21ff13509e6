import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { meta } from '../../platform/meta.ts';
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

const read = meta({ auth: 'tenant', rail: 'compliance', permission: 'compliance:read', mutating: false });

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
const assessmentWrite = (audit: string, extra: { stateful?: true } = {}) =>
  meta({ auth: 'tenant', rail: 'compliance', permission: 'compliance:write', mutating: true, audit, ...extra });
const AssessmentParams = z.object({ id: AssessmentId });

/** The work inside an assessment: questions, answers, assignments, results and remediation. */
const assessmentWork = {
  questions: {
    method: 'GET',
    path: '/assessments/:id/questions',
    pathParams: AssessmentParams,
    query: PaginationQuery.extend(QuestionListQuery.shape),
    responses: { 200: listOf(AssessmentQuestion) },
    summary: 'List an assessment’s questions',
    description:
      'The questions in order, each with its current answer, assignment and review comment, cursor-paginated; filters by stage, answered, required and assignee. Another tenant’s assessment: 404. Needs `compliance:read`.',
    metadata: read,
  },
  question: {
    method: 'GET',
    path: '/assessments/:id/questions/:key',
    pathParams: AssessmentQuestionParams,
    responses: { 200: AssessmentQuestion },
    summary: 'Get one question of an assessment',
    description: 'The question with its current answer. Needs `compliance:read`.',
    metadata: questionRead,
  },
  answer: {
    method: 'PUT',
    path: '/assessments/:id/questions/:key/answer',
    pathParams: AssessmentQuestionParams,
    body: AnswerBody,
    responses: { 200: AssessmentQuestion },
    summary: 'Answer a question (or change the answer)',
    description:
      'Stores a new version of the answer: the value must be of the question’s kind (422 on `value`), an `evidence` question needs evidence, a requirement other than compliant a justification in `notes`, and each evidence id must be a current evidence record of the tenant (422 on `evidenceIds.<n>`). A `draft` assessment moves to `in_progress`; stage statuses and completion follow. An assessment in review or approved: 409. The answerer is the person the key acts for, else the key. Emitted as `assessment.answered`.',
    metadata: assessmentWrite('assessment.answered', { stateful: true }),
  },
  clearAnswer: {
    method: 'DELETE',
    path: '/assessments/:id/questions/:key/answer',
    pathParams: AssessmentQuestionParams,
    body: c.noBody(),
    responses: { 200: AssessmentQuestion },
    summary: 'Clear the answer to a question',
    description:
      'Records a `cleared` version; the question is unanswered again. An assessment in review or approved: 409. Emitted as `assessment.answer_cleared`.',
    metadata: assessmentWrite('assessment.answer_cleared', { stateful: true }),
  },
  assign: {
    method: 'PUT',
    path: '/assessments/:id/questions/:key/assignment',
    pathParams: AssessmentQuestionParams,
    body: AssignBody,
    responses: { 200: AssessmentQuestion },
    summary: 'Assign a question to a person',
    description:
      'Assigns the question to an active person of the stakeholders rail (422 on `personId` otherwise), with an optional due date that the deadline sweep announces (`assessment.question_due` from three days before, `assessment.question_overdue` after); `personId: null` removes the assignment. An approved assessment: 409. Emitted as `assessment.question_assigned`.',
    metadata: assessmentWrite('assessment.question_assigned', { stateful: true }),
  },
  answerHistory: {
    method: 'GET',
    path: '/assessments/:id/questions/:key/answers',
    pathParams: AssessmentQuestionParams,
    query: PaginationQuery,
    responses: { 200: listOf(AnswerVersion) },
    summary: 'The versions of an answer',
    description:
      'Every version of the question’s answer, newest first: who answered, changed, cleared or carried it, when, and what. Needs `compliance:read`.',
    metadata: read,
  },
  results: {
    method: 'GET',
    path: '/assessments/:id/results',
    pathParams: AssessmentParams,
    responses: { 200: AssessmentResults },
    summary: 'The results of an assessment',
    description:
      'Completion per stage and the required questions still open; for a gap analysis also the score per control, clause and framework and the gaps (`{ control, missing: [...] }`). Needs `compliance:read`.',
    metadata: read,
  },
  remediate: {
    method: 'POST',
    path: '/assessments/:id/remediation',
    pathParams: AssessmentParams,
    body: RemediateAssessmentBody,
    responses: { 201: AssessmentRemediation },
    summary: 'Turn a gap analysis’s gaps into findings and remediations',
    description:
      'For an approved gap analysis: a self-audit finding (severity high for non-compliant, medium otherwise) and its remediation per gap, in one transaction; gaps that already have a finding from this assessment are skipped. Another type or not approved: 409. Emitted as `finding.created` and `remediation.created` per gap.',
    metadata: assessmentWrite('assessment.remediated', { stateful: true }),
  },
  revise: {
    method: 'POST',
    path: '/assessments/:id/revisions',
    pathParams: AssessmentParams,
    body: z.strictObject({}).optional(),
    responses: { 201: Assessment },
    summary: 'Start a new revision of an approved assessment',
    description:
      'A new assessment (revision + 1, `previousId`) in progress with the same questions and the answers carried over (each a `carried` version). Only from an approved assessment that has no later revision: 409 otherwise. Emitted as `assessment.created`.',
    metadata: assessmentWrite('assessment.created', { stateful: true }),
  },
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
    list: {
      method: 'GET',
      path: '/frameworks',
      query: PaginationQuery.extend({
        activated: z
          .enum(['true', 'false'])
          .optional()
          .meta({ description: '`true`: only frameworks the tenant has activated; `false`: only the others; absent: all.' }),
      }),
      responses: { 200: listOf(TenantFramework) },
      summary: "List frameworks with the tenant's activation state",
      description:
        'Returns every framework dictionary with whether the calling tenant has activated it, the activated `<dictionary>@<version>` and when. `activated=true` or `false` keeps only activated or not activated frameworks. Needs `compliance:read`.',
      metadata: read,
    },
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
