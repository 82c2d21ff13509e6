import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { meta } from '../../platform/meta.ts';
import { claimIdPrefix, railRouter } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { ASSESSMENT_TYPE_IDS } from '../../shared/assessment-types.ts';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { EXAMPLE_AT, EXAMPLE_KEY, exampleId } from '../../shared/records.ts';
import { INDUSTRY_IDS, IndustryId } from '../profiles/index.ts';

claimIdPrefix('onb', 'svc.onboarding.onboarding');

const objectOf = <T extends string>(name: T) => z.literal(name).meta({ description: 'Type of the object, constant for the schema.' });

const ONBOARDING_ID = exampleId('onb');
const OnboardingId = prefixedId('onb', ONBOARDING_ID);

/** The profile an answer is for when no plan request names one: the catalogue's first profile. */
export const DEFAULT_ONBOARDING_PROFILE = INDUSTRY_IDS[0];

const ProfileSource = z.enum(['query', 'onboarding', 'default']).meta({
  description: `Where the profile comes from: \`query\` (the \`profile\` parameter), \`onboarding\` (the open onboarding, else the latest one) or \`default\` (the tenant never started one: the catalogue's first profile, \`${DEFAULT_ONBOARDING_PROFILE}\`).`,
});

/** `done / total` as a percentage, of a phase or of the whole plan. */
const Percent = z.number().min(0).max(100).meta({ description: 'done / total x 100, rounded to one decimal.' });

export const ONBOARDING_TASK_KINDS = ['activate_framework', 'collect_evidence', 'run_assessment'] as const;

export const OnboardingTask = z
  .object({
    id: z.string().meta({ description: 'Stable id of the task: `<kind>:<subject>` (`activate_framework:dora`).' }),
    kind: z
      .enum(ONBOARDING_TASK_KINDS)
      .meta({ description: 'What the task asks: activate a framework, record evidence for a control, or create an assessment.' }),
    title: z.string().meta({ description: 'What to do, in words.' }),
    framework: z.string().meta({ description: 'Framework of the profile the task serves.' }),
    controlId: z.string().nullable().meta({ description: 'Control to record evidence for (`collect_evidence`); null otherwise.' }),
    assessmentType: z
      .enum(ASSESSMENT_TYPE_IDS)
      .nullable()
      .meta({ description: 'Assessment type to create (`run_assessment`); null otherwise.' }),
    priority: z.int().min(1).max(3).meta({ description: 'Priority from the profile: 1 first, 3 last.' }),
    why: z.string().meta({ description: 'Why the profile calls for it.' }),
  })
  .meta({ id: 'OnboardingTask' });

export const OnboardingPhase = z
  .object({
    week: z.int().min(1).meta({ description: 'Week of the onboarding the phase is planned for, from 1.' }),
    name: z.string().meta({ description: 'Name of the phase.' }),
    tasks: z.array(OnboardingTask).meta({ description: 'Tasks of the phase, in order of work.' }),
  })
  .meta({ id: 'OnboardingPhase' });

const TASK_EXAMPLE = {
  id: 'activate_framework:dora',
  kind: 'activate_framework',
  title: 'Activate DORA',
  framework: 'dora',
  controlId: null,
  assessmentType: null,
  priority: 1,
  why: 'Credit institutions are financial entities under DORA Art. 2(1)(a).',
};

/** The example plan's one phase: week 1, activating DORA. */
const PHASE_EXAMPLE = { week: 1, name: 'Activate frameworks', tasks: [TASK_EXAMPLE] };

export const OnboardingPlan = z
  .object({
    object: objectOf('svc.onboarding.plan'),
    profile: IndustryId,
    phases: z.array(OnboardingPhase).meta({
      description: 'Phases by week: frameworks to activate, then evidence by priority, then assessments; empty phases are left out.',
    }),
    totals: z
      .object({
        tasks: z.int().meta({ description: 'Tasks still to do, across the phases.' }),
        alreadyDone: z.int().meta({ description: 'Tasks of the profile the tenant has already done, left out of the plan.' }),
        weeks: z.int().meta({ description: 'Number of weeks the plan spans.' }),
      })
      .meta({ description: 'Counts of the plan.' }),
  })
  .meta({
    id: 'OnboardingPlan',
    examples: [
      {
        object: 'svc.onboarding.plan',
        profile: 'banking',
        phases: [PHASE_EXAMPLE],
        totals: { tasks: 1, alreadyDone: 0, weeks: 1 },
      },
    ],
  });

export const PlanRequest = z
  .strictObject({ profile: IndustryId.meta({ description: 'Industry profile to plan the onboarding for.' }) })
  .meta({ id: 'OnboardingPlanRequest', examples: [{ profile: 'banking' }] });

export const ChecklistItem = OnboardingTask.extend({
  week: z.int().min(1).meta({ description: 'Week of the full plan the task belongs to.' }),
  done: z.boolean().meta({ description: "Whether the tenant's data shows the task done." }),
  doneAt: Timestamp.nullable().meta({
    description: 'When it was done: the activation, the first valid evidence or the first assessment; null when not done.',
  }),
}).meta({ id: 'OnboardingChecklistItem' });

export const OnboardingChecklist = z
  .object({
    object: objectOf('svc.onboarding.checklist'),
    profile: IndustryId,
    profileSource: ProfileSource,
    onboardingId: z.string().nullable().meta({ description: 'Open onboarding the checklist follows; null when none is open.' }),
    items: z.array(ChecklistItem).meta({ description: "Every task of the profile, in plan order, done or not from the tenant's data." }),
    done: z.int().meta({ description: 'Items done.' }),
    total: z.int().meta({ description: 'Items in all.' }),
  })
  .meta({
    id: 'OnboardingChecklist',
    examples: [
      {
        object: 'svc.onboarding.checklist',
        profile: 'banking',
        profileSource: 'onboarding',
        onboardingId: null,
        items: [{ ...TASK_EXAMPLE, week: 1, done: true, doneAt: EXAMPLE_AT }],
        done: 1,
        total: 1,
      },
    ],
  });

export const Onboarding = z
  .object({
    object: objectOf('svc.onboarding.onboarding'),
    id: OnboardingId,
    profile: IndustryId,
    status: z
      .enum(['in_progress', 'completed'])
      .meta({ description: '`in_progress` until every task of its plan is done; a kickoff after that closes it as `completed`.' }),
    phases: z.array(OnboardingPhase).meta({ description: 'The plan as computed at kickoff: what the onboarding tracks.' }),
    startedBy: z.string().meta({ description: 'Id of the API key whose request started it.' }),
    createdAt: Timestamp.meta({ description: 'When the onboarding was started (ISO 8601 UTC).' }),
    completedAt: Timestamp.nullable().meta({ description: 'When it was closed as completed; null while in progress.' }),
  })
  .meta({
    id: 'Onboarding',
    examples: [
      {
        object: 'svc.onboarding.onboarding',
        id: ONBOARDING_ID,
        profile: 'banking',
        status: 'in_progress',
        phases: [PHASE_EXAMPLE],
        startedBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
        completedAt: null,
      },
    ],
  });

export const KickoffRequest = z
  .strictObject({ profile: IndustryId.meta({ description: 'Industry profile whose plan the onboarding tracks.' }) })
  .meta({ id: 'OnboardingKickoffRequest', examples: [{ profile: 'healthcare' }] });

export const MilestonePhase = z
  .object({
    week: z.int().meta({ description: 'Week of the phase.' }),
    name: z.string().meta({ description: 'Name of the phase.' }),
    dueDate: z.string().meta({
      description:
        'End of the phase’s week counted from kickoff (ISO 8601 date); from today when no onboarding is in progress (`projected`).',
    }),
    total: z.int().meta({ description: 'Tasks of the phase.' }),
    done: z.int().meta({ description: "Of those, done according to the tenant's data now." }),
    percent: Percent,
    status: z
      .enum(['not_started', 'in_progress', 'done', 'overdue'])
      .meta({ description: '`done` at 100 %, `overdue` when the due date has passed before that, else by progress.' }),
  })
  .meta({ id: 'OnboardingMilestonePhase' });

export const OnboardingMilestones = z
  .object({
    object: objectOf('svc.onboarding.milestones'),
    onboardingId: OnboardingId.nullable().meta({ description: 'The onboarding in progress; null when none is (`projected`).' }),
    profile: IndustryId,
    profileSource: ProfileSource,
    projected: z.boolean().meta({
      description:
        'False while an onboarding is in progress: its plan fixed at kickoff, due dates from kickoff. True when none is: the full plan of the profile as if kicked off now, due dates from today, done from the tenant’s data (nothing for a new tenant).',
    }),
    startedAt: Timestamp.nullable().meta({ description: 'When the onboarding was started; null when none is in progress.' }),
    phases: z
      .array(MilestonePhase)
      .meta({ description: 'Progress of each phase of the plan fixed at kickoff (or, `projected`, of the full plan of the profile).' }),
    overall: z
      .object({
        total: z.int().meta({ description: 'Tasks of the plan.' }),
        done: z.int().meta({ description: 'Tasks done.' }),
        percent: Percent,
      })
      .meta({ description: 'Progress across the plan.' }),
  })
  .meta({
    id: 'OnboardingMilestones',
    examples: [
      {
        object: 'svc.onboarding.milestones',
        onboardingId: ONBOARDING_ID,
        profile: 'banking',
        profileSource: 'onboarding',
        projected: false,
        startedAt: EXAMPLE_AT,
        phases: [{ week: 1, name: 'Activate frameworks', dueDate: '2026-11-29', total: 6, done: 3, percent: 50, status: 'in_progress' }],
        overall: { total: 6, done: 3, percent: 50 },
      },
    ],
  });

export const OnboardingExport = z
  .object({
    object: objectOf('svc.onboarding.export'),
    generatedAt: Timestamp.meta({ description: 'When the document was computed.' }),
    profile: IndustryId,
    profileSource: ProfileSource,
    onboarding: Onboarding.nullable().meta({ description: 'The open onboarding; null when none is open.' }),
    plan: OnboardingPlan,
    checklist: OnboardingChecklist,
    milestones: OnboardingMilestones.meta({
      description: 'Milestones of the open onboarding; when none is open, those of the full plan, projected from today.',
    }),
  })
  .meta({ id: 'OnboardingExport' });

const ProfileQuery = z.object({
  profile: IndustryId.optional().meta({
    description: `Industry profile; defaults to the profile of the open onboarding, else of the latest one, else \`${DEFAULT_ONBOARDING_PROFILE}\` (a tenant that never started one).`,
  }),
});

const { read, write } = policyOf('onboarding');
const ByProfile = { query: ProfileQuery };

export const onboardingRouter = railRouter('onboarding', {
  plan: post('/plan', { body: PlanRequest }, OnboardingPlan, read).doc(
    'Compute an onboarding plan for an industry profile',
    "Derives the tasks from the profile's frameworks, control baseline and the assessments those frameworks call for, and leaves out what the tenant already has: frameworks activated, baseline controls with valid evidence, assessments of the type created. Phases by week: activation in week 1, evidence by priority in the following weeks, assessments last. Reads only. An unknown profile is a 422.",
  ),
  checklist: get('/checklist', ByProfile, OnboardingChecklist, read).doc(
    "Every task of the profile, done or not from the tenant's data",
    "The full task list of the profile (the plan before anything is left out), each marked done from the tenant's activations, evidence and assessments, with when. The profile is the query's, else the open onboarding's, else the latest onboarding's, else the default profile (`profileSource` says which): a new tenant gets the default profile's checklist with nothing done, never a 404.",
  ),
  kickoff: post('/kickoff', { body: KickoffRequest }, { 201: Onboarding }, write('onboarding.started')).doc(
    'Start a tracked onboarding',
    'Computes the plan for the profile and stores it as the tenant’s onboarding, which milestones then track. Audited (`onboarding.started`) and emitted as a webhook event. A second kickoff while one is in progress is 409; one whose tasks are all done is closed as `completed` (audited `onboarding.completed`) and the new one starts.',
  ),
  milestones: get('/milestones', ByProfile, OnboardingMilestones, read).doc(
    'Progress of the open onboarding, per phase',
    "For each phase of the plan fixed at kickoff: its tasks done according to the tenant's data now, the percentage, the due date (kickoff + weeks) and a status. When no onboarding is in progress (a new tenant), the milestones of the full plan of the profile (the query's, else the latest onboarding's, else the default profile) as if kicked off now: `projected: true`, `onboardingId` and `startedAt` null, due dates from today. `profile` applies only then; an onboarding in progress is always the one reported.",
  ),
  export: get('/export', ByProfile, OnboardingExport, meta({ ...read, source: { object: 'svc.onboarding.onboarding' } })).doc(
    'Plan, checklist and milestones as one document',
    'One JSON document with the open onboarding (null when none), the current plan, the checklist and the milestones (projected when no onboarding is in progress), for the profile of the query, else of the open or latest onboarding, else the default profile: a new tenant gets the default plan with nothing done. Reads only.',
  ),
});

/** Event types the onboarding rail emits. */
export const onboardingEvents = [
  eventType('onboarding.started', 'An onboarding was started for an industry profile.', Onboarding),
  eventType('onboarding.completed', 'An onboarding was closed with every task done.', Onboarding),
];
