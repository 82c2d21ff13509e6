import { z } from 'zod';
import { ControlRef, EXAMPLE_USER, prefixedId, Timestamp, UserId } from '../../shared/common.ts';
import { EXAMPLE_AT, exampleId, objectField } from '../../shared/records.ts';

/**
 * The work inside an assessment: its questions (from the recipe of its type and the pinned
 * dictionary, or a framework's controls for a gap analysis), their answers and the versions of
 * each answer, assignments, review comments, the results and what a gap analysis turns into.
 */

/**
 * `yes_no`: `yes`, `no` or `not_applicable`; `text`: free text; `scale`: an integer 1 to 5;
 * `evidence`: evidence records attached (the value an optional note); `choice`: one of the
 * question's options; `requirement`: a control's assessment, `compliant`, `partially_compliant`,
 * `non_compliant` or `not_applicable`, with a justification unless compliant.
 */
export const QUESTION_KINDS = ['yes_no', 'text', 'scale', 'evidence', 'choice', 'requirement'] as const;
export const REQUIREMENT_STATUSES = ['compliant', 'partially_compliant', 'non_compliant', 'not_applicable'] as const;
export const YES_NO = ['yes', 'no', 'not_applicable'] as const;

const ASSESSMENT_ID = exampleId('asm');
export const AssessmentId = prefixedId('asm', ASSESSMENT_ID);
export const QuestionKey = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/)
  .meta({
    description: 'Key of the question within its assessment (`process-description`, `AIA-Q-063`, `req.AIA-CLS-01`).',
    examples: ['process-description'],
  });
export const AssessmentQuestionParams = z.object({ id: AssessmentId, key: QuestionKey });

const objectOf = <T extends string>(name: T) => objectField(name, 'svc.compliance.assessment_question');
const EvidenceIds = z
  .array(prefixedId('evd', exampleId('evd')))
  .max(50)
  .meta({ description: 'Evidence records of the tenant that support the answer; each must exist and not have expired.' });
const Score = z.number().min(0).max(1).nullable();
const Actor = z.string().meta({ description: 'The person who acted (`usr_...`) when the API key acts for one, otherwise the API key.' });

export const AnswerValue = z.union([z.string().min(1).max(20000), z.int().min(-1_000_000).max(1_000_000)]).meta({
  description:
    'Of the question’s kind: `yes`/`no`/`not_applicable` (yes_no), text, an integer 1-5 (scale), an option’s value (choice), a requirement status (requirement); optional for evidence questions.',
});

export const QuestionSource = z
  .object({
    framework: z.string().meta({ description: 'Dictionary id (`eu-ai-act`).' }),
    clause: z.string().nullable().meta({ description: 'Clause ref in the pinned version (`art-27`); null for a control’s requirement.' }),
    citation: z.string().meta({ description: 'The provision as cited (`Art. 27(1)(a)`), or the control id and title.' }),
  })
  .meta({ description: 'Where the question comes from in the law or the framework.' });

export const Answer = z
  .object({
    value: AnswerValue.nullable().meta({
      description: 'The answer’s value (see AnswerValue); null for an evidence question answered without a note.',
    }),
    notes: z.string().nullable().meta({ description: 'Notes or the justification of a requirement status.' }),
    evidenceIds: EvidenceIds,
    answeredBy: Actor,
    answeredAt: Timestamp.meta({ description: 'When this version of the answer was given.' }),
    version: z.int().min(1).meta({ description: 'Version of the answer: 1 for the first, one more per change.' }),
  })
  .meta({ description: 'The current answer; null when unanswered or cleared.' });

export const AssessmentQuestion = z
  .object({
    object: objectOf('svc.compliance.assessment_question'),
    assessmentId: AssessmentId,
    key: QuestionKey,
    stage: z.string().meta({ description: 'Key of the stage the question belongs to.' }),
    position: z.int().min(0).meta({ description: 'Order of the question in the assessment.' }),
    text: z.string().meta({ description: 'What is asked.' }),
    kind: z.enum(QUESTION_KINDS).meta({ description: 'What an answer holds (see `value`).' }),
    options: z
      .array(
        z.object({
          value: z.string().meta({ description: 'What an answer sends.' }),
          label: z.string().meta({ description: 'What a person reads.' }),
        }),
      )
      .nullable()
      .meta({ description: 'The values a `choice` question accepts; null for other kinds.' }),
    required: z
      .boolean()
      .meta({ description: 'Counts towards completion and must be answered before submission (given the answers so far).' }),
    control: ControlRef.nullable().meta({ description: 'The control the question assesses or supports; null when none.' }),
    source: QuestionSource,
    guidance: z.string().nullable().meta({ description: 'What a good answer covers.' }),
    answer: Answer.nullable().meta({ description: 'The current answer; null when unanswered or cleared.' }),
    assignment: z
      .object({
        personId: UserId,
        dueDate: z.iso.date().nullable().meta({ description: 'When the answer is due (`YYYY-MM-DD`); the deadline sweep announces it.' }),
        assignedBy: z.string().meta({ description: 'Who assigned it (person or API key).' }),
        assignedAt: Timestamp.meta({ description: 'When it was assigned.' }),
      })
      .nullable()
      .meta({ description: 'Who is to answer the question; null when unassigned.' }),
    review: z
      .object({
        comment: z.string().meta({ description: 'What the reviewer asks to change.' }),
        by: Actor,
        at: Timestamp.meta({ description: 'When the assessment was returned with it.' }),
      })
      .nullable()
      .meta({ description: 'The reviewer’s comment when the assessment was returned; cleared by the next answer.' }),
  })
  .meta({
    id: 'AssessmentQuestion',
    examples: [
      {
        object: 'svc.compliance.assessment_question',
        assessmentId: ASSESSMENT_ID,
        key: 'process-description',
        stage: 'process',
        position: 0,
        text: 'Describe the deployer’s processes in which the high-risk AI system will be used in line with its intended purpose.',
        kind: 'text',
        options: null,
        required: true,
        control: null,
        source: { framework: 'eu-ai-act', clause: 'art-27', citation: 'Art. 27(1)(a)' },
        guidance: null,
        answer: {
          value: 'Credit decisions for consumer loans up to EUR 50,000.',
          notes: null,
          evidenceIds: [],
          answeredBy: EXAMPLE_USER,
          answeredAt: EXAMPLE_AT,
          version: 1,
        },
        assignment: null,
        review: null,
      },
    ],
  });

export const AnswerBody = z
  .strictObject({
    value: AnswerValue.optional(),
    notes: z
      .string()
      .min(1)
      .max(20000)
      .optional()
      .meta({ description: 'Notes; the justification of a requirement status other than compliant.' }),
    evidenceIds: EvidenceIds.optional(),
  })
  .meta({
    id: 'AnswerAssessmentQuestionRequest',
    description: 'The answer replaces the current one (a new version); fields left out are empty in the new version.',
    examples: [{ value: 'Credit decisions for consumer loans up to EUR 50,000.' }],
  });

export const AssignBody = z
  .strictObject({
    personId: UserId.nullable().meta({ description: 'A person of the stakeholders rail; null removes the assignment.' }),
    dueDate: z.iso.date().nullable().optional().meta({ description: 'When the answer is due (`YYYY-MM-DD`).' }),
  })
  .meta({ id: 'AssignAssessmentQuestionRequest', examples: [{ personId: EXAMPLE_USER, dueDate: '2026-12-15' }] });

export const AnswerVersion = z
  .object({
    object: objectField('svc.compliance.answer_version'),
    assessmentId: AssessmentId,
    question: QuestionKey,
    version: z.int().min(1).meta({ description: 'The version number, from 1.' }),
    action: z.enum(['answered', 'changed', 'cleared', 'carried']).meta({
      description: '`answered` (first answer), `changed`, `cleared`, or `carried` into a new revision.',
    }),
    value: AnswerValue.nullable().meta({ description: 'The value of this version; null when cleared.' }),
    notes: z.string().nullable().meta({ description: 'The notes of this version.' }),
    evidenceIds: EvidenceIds,
    by: Actor,
    at: Timestamp.meta({ description: 'When this version was recorded.' }),
  })
  .meta({
    id: 'AnswerVersion',
    examples: [
      {
        object: 'svc.compliance.answer_version',
        assessmentId: ASSESSMENT_ID,
        question: 'process-description',
        version: 1,
        action: 'answered',
        value: 'Credit decisions for consumer loans.',
        notes: null,
        evidenceIds: [],
        by: EXAMPLE_USER,
        at: EXAMPLE_AT,
      },
    ],
  });

export const QuestionListQuery = z.object({
  stage: z.string().max(64).optional().meta({ description: 'Only the questions of this stage.' }),
  answered: z.enum(['true', 'false']).optional().meta({ description: '`true`: only answered questions; `false`: only unanswered ones.' }),
  required: z.enum(['true', 'false']).optional().meta({ description: 'Only required (`true`) or optional (`false`) questions.' }),
  personId: UserId.optional().meta({ description: 'Only the questions assigned to this person.' }),
});

export const SubmitAssessmentBody = z
  .strictObject({
    reason: z.string().min(1).max(1000).optional().meta({ description: 'A note for the reviewer; kept in the audit event.' }),
  })
  .meta({ id: 'SubmitAssessmentRequest', examples: [{ reason: 'Ready for the DPO’s review.' }] });

export const ReturnAssessmentBody = z
  .strictObject({
    comments: z
      .array(
        z.strictObject({
          question: QuestionKey,
          comment: z.string().min(1).max(4000).meta({ description: 'What to change in the answer.' }),
        }),
      )
      .min(1)
      .max(500)
      .meta({ description: 'What to change, per question; each question must be one of the assessment’s.' }),
    reason: z.string().min(1).max(1000).optional().meta({ description: 'A summary; kept in the audit event.' }),
  })
  .meta({
    id: 'ReturnAssessmentRequest',
    examples: [{ comments: [{ question: 'process-description', comment: 'Name the loan products concerned.' }] }],
  });

const ScoreOf = (what: string) => Score.meta({ description: `${what}: 0 to 1; null when nothing is scored.` });
const Count = (what: string) => z.int().min(0).meta({ description: what });
export const AssessmentResults = z
  .object({
    object: objectField('svc.compliance.assessment_results'),
    assessmentId: AssessmentId,
    type: z.string().meta({ description: 'The assessment type.' }),
    status: z.string().meta({ description: 'The assessment’s status.' }),
    dictionaryVersion: z.string().nullable().meta({ description: 'The pinned `<dictionary>@<version>`.' }),
    completion: z.number().min(0).max(1).meta({ description: 'Share of the required questions answered.' }),
    stages: z
      .array(
        z.object({
          key: z.string().meta({ description: 'Key of the stage.' }),
          title: z.string().meta({ description: 'Title of the stage.' }),
          required: Count('Required questions of the stage, given the answers.'),
          answered: Count('Required questions of the stage answered.'),
          completion: z.number().min(0).max(1).meta({ description: '`answered` / `required`.' }),
        }),
      )
      .meta({ description: 'Progress per stage, in order.' }),
    open: z
      .array(
        z.object({
          question: QuestionKey,
          stage: z.string().meta({ description: 'Key of its stage.' }),
          text: z.string().meta({ description: 'What is asked.' }),
        }),
      )
      .meta({ description: 'Required questions without an answer.' }),
    score: Score.meta({
      description:
        'Gap analysis: the mean of the assessed controls’ scores (compliant 1, partially compliant 0.5, non-compliant 0; not applicable left out); null for other types or when no control is assessed.',
    }),
    frameworks: z
      .array(
        z.object({
          framework: z.string().meta({ description: 'The assessed framework.' }),
          dictionaryVersion: z.string().nullable().meta({ description: 'Its pinned version.' }),
          score: ScoreOf('The framework’s score'),
          controls: Count('Controls of the framework.'),
          assessed: Count('Controls with a requirement status.'),
          compliant: Count('Controls assessed compliant.'),
          partiallyCompliant: Count('Controls assessed partially compliant.'),
          nonCompliant: Count('Controls assessed non-compliant.'),
          notApplicable: Count('Controls assessed not applicable.'),
        }),
      )
      .meta({ description: 'Gap analysis: the framework’s figures; empty for other types.' }),
    controls: z
      .array(
        z.object({
          control: ControlRef.meta({ description: 'The control.' }),
          title: z.string().meta({ description: 'Its title.' }),
          status: z.enum(REQUIREMENT_STATUSES).nullable().meta({ description: 'Its requirement status; null when not assessed.' }),
          score: ScoreOf('Its score (1, 0.5 or 0)'),
          clauses: z.array(z.string()).meta({ description: 'Clauses of the framework the control cites.' }),
          evidenceIds: z.array(z.string()).meta({ description: 'Evidence attached to its requirement answer.' }),
        }),
      )
      .meta({ description: 'Gap analysis: every control with its status and score; empty for other types.' }),
    clauses: z
      .array(
        z.object({
          clause: z.string().meta({ description: 'Clause ref.' }),
          score: ScoreOf('The mean score of the controls citing it'),
          controls: Count('Controls citing the clause.'),
        }),
      )
      .meta({ description: 'Per clause of the framework: the mean score of the controls that cite it.' }),
    gaps: z
      .array(
        z.object({
          control: ControlRef.meta({ description: 'The control with a gap.' }),
          title: z.string().meta({ description: 'Its title.' }),
          status: z.enum(REQUIREMENT_STATUSES).nullable().meta({ description: 'Its requirement status; null when not assessed.' }),
          missing: z.array(z.string()).meta({
            description:
              'What is missing: the assessment itself, supporting questions answered no or not answered, evidence, the justification given.',
          }),
        }),
      )
      .meta({ description: 'Controls not compliant or not yet assessed, with what is missing; empty for other types.' }),
    answersHash: z.string().nullable().meta({ description: 'SHA-256 of the frozen answers and their evidence once approved.' }),
  })
  .meta({
    id: 'AssessmentResults',
    examples: [
      {
        object: 'svc.compliance.assessment_results',
        assessmentId: ASSESSMENT_ID,
        type: 'gap-analysis',
        status: 'approved',
        dictionaryVersion: 'eu-ai-act@1.0.0',
        completion: 1,
        stages: [{ key: 'conformity', title: 'Conformity', required: 2, answered: 2, completion: 1 }],
        open: [],
        score: 0.5,
        frameworks: [
          {
            framework: 'eu-ai-act',
            dictionaryVersion: 'eu-ai-act@1.0.0',
            score: 0.5,
            controls: 2,
            assessed: 2,
            compliant: 1,
            partiallyCompliant: 0,
            nonCompliant: 1,
            notApplicable: 0,
          },
        ],
        controls: [
          { control: 'AIA-CLS-01', title: 'AI system inventory', status: 'compliant', score: 1, clauses: ['art-2'], evidenceIds: [] },
        ],
        clauses: [{ clause: 'art-2', score: 1, controls: 1 }],
        gaps: [{ control: 'AIA-CLS-02', title: 'Risk classification', status: 'non_compliant', missing: ['AIA-Q-003: answered no'] }],
        answersHash: 'a3f1c9d2e4b5a6978812345678901234567890abcdef1234567890abcdef1234',
      },
    ],
  });

export const RemediateAssessmentBody = z
  .strictObject({
    controls: z.array(ControlRef).min(1).max(500).optional().meta({ description: 'Only these gaps’ controls; all gaps when absent.' }),
    ownerId: UserId.optional().meta({ description: 'The person who owns the remediations.' }),
    dueDate: z.iso.date().optional().meta({ description: 'When the remediations are due (`YYYY-MM-DD`).' }),
  })
  .meta({ id: 'RemediateAssessmentRequest', examples: [{ dueDate: '2027-03-31' }] });

export const AssessmentRemediation = z
  .object({
    object: objectField('svc.compliance.assessment_remediation'),
    assessmentId: AssessmentId,
    created: z
      .array(
        z.object({
          control: ControlRef.meta({ description: 'The control of the gap.' }),
          findingId: z.string().meta({ description: 'The self-audit finding (`fnd_`).' }),
          remediationId: z.string().meta({ description: 'Its remediation (`rem_`).' }),
          severity: z.string().meta({ description: '`high` for non-compliant or not assessed, `medium` for partially compliant.' }),
        }),
      )
      .meta({ description: 'A self-audit finding and its remediation per gap.' }),
    skipped: z
      .array(
        z.object({
          control: ControlRef.meta({ description: 'The control of the gap.' }),
          findingId: z.string().meta({ description: 'The finding it already has.' }),
        }),
      )
      .meta({ description: 'Gaps that already have a finding from this assessment.' }),
  })
  .meta({
    id: 'AssessmentRemediation',
    examples: [
      {
        object: 'svc.compliance.assessment_remediation',
        assessmentId: ASSESSMENT_ID,
        created: [{ control: 'AIA-CLS-02', findingId: exampleId('fnd'), remediationId: exampleId('rem'), severity: 'high' }],
        skipped: [],
      },
    ],
  });

export const AssessmentQuestionDue = z
  .object({
    assessmentId: AssessmentId,
    type: z.string().meta({ description: 'The assessment type.' }),
    title: z.string().nullable().meta({ description: 'The assessment’s title.' }),
    question: QuestionKey,
    personId: UserId,
    dueDate: z.iso.date().meta({ description: 'The due date (`YYYY-MM-DD`).' }),
    daysRemaining: z.int().meta({ description: 'Whole days left before the due date ends; negative once overdue.' }),
  })
  .meta({
    id: 'AssessmentQuestionDue',
    description: 'An assigned question still unanswered near or past its due date, as the deadline sweep announces it.',
    examples: [
      {
        assessmentId: ASSESSMENT_ID,
        type: 'fria',
        title: null,
        question: 'process-description',
        personId: EXAMPLE_USER,
        dueDate: '2026-12-15',
        daysRemaining: 2,
      },
    ],
  });
