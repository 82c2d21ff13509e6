import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { ControlRef, EXAMPLE_USER, prefixedId, Timestamp, UserId } from '../../shared/common.ts';
import {
  CREATED_BY_DESCRIPTION,
  created,
  EXAMPLE_AT,
  EXAMPLE_KEY,
  exampleId,
  exampleStamps,
  objectField,
  stamps,
} from '../../shared/records.ts';

/** The risk register rail's records, request bodies and their examples (index.ts describes the rail). */

/** The `object` field of a record of the rail (the description names the risk as its example). */
const objectOf = <const T extends string>(name: T) => objectField(name, 'svc.risk_register.risk');

const EXAMPLE_RISK = exampleId('rsk');
const EXAMPLE_TREATMENT = exampleId('rtr');
const EXAMPLE_REVIEW = exampleId('rrv');
const EXAMPLE_SIGN_OFF = exampleId('rso');
/** The next review date of the example risk: 90 days after it was recorded. */
const EXAMPLE_NEXT_REVIEW = '2027-02-20T09:30:00.000Z';

export const RiskId = prefixedId('rsk', EXAMPLE_RISK);
/** A risk id with its own description (keeps the example). */
const riskRef = (description: string) => RiskId.meta({ description, examples: [EXAMPLE_RISK] });
/** A person id with its own description (keeps the example). */
const userRef = (description: string) => UserId.meta({ description, examples: [EXAMPLE_USER] });

/** Domains a risk belongs to: a fixed list. */
export const RISK_DOMAINS = ['ai', 'privacy', 'security', 'third-party', 'operational', 'regulatory', 'financial'] as const;
export const RiskDomain = z
  .enum(RISK_DOMAINS)
  .meta({ description: 'Domain of the risk: `ai`, `privacy`, `security`, `third-party`, `operational`, `regulatory` or `financial`.' });

export const RISK_STATUSES = ['open', 'treated', 'accepted', 'closed'] as const;
export const RiskStatus = z.enum(RISK_STATUSES).meta({
  description:
    '`open` when recorded; `treated` once an implemented treatment moved its residual; `accepted` when its accountable owner signed off the residual; `closed` through `close` (final). Implementing a treatment that moves the residual of an `accepted` risk sets it back to `treated` (the sign-off no longer matches the residual).',
});

export const RISK_RATINGS = ['low', 'medium', 'high', 'critical'] as const;
export const RiskRating = z.enum(RISK_RATINGS).meta({
  description:
    'Band of a score (likelihood x impact, 1 to 25): `low` 1-4, `medium` 5-9, `high` 10-16, `critical` 17-25 (in practice 20 and 25).',
});

const Level = (what: string) =>
  z
    .int()
    .min(1)
    .max(5)
    .meta({ description: `${what}, 1 (rare / negligible) to 5 (almost certain / severe).` });
const Score = (what: string) =>
  z
    .int()
    .min(1)
    .max(25)
    .meta({ description: `${what}: likelihood x impact, 1 to 25.` });

/** The thresholds of the rating bands, shared by the server and the documentation. */
export function riskRatingOf(score: number): (typeof RISK_RATINGS)[number] {
  if (score >= 17) return 'critical';
  if (score >= 10) return 'high';
  if (score >= 5) return 'medium';
  return 'low';
}

// ---------------------------------------------------------------- treatments (declared first: a risk's create may carry them)

export const RISK_TREATMENT_TYPES = ['accept', 'mitigate', 'transfer', 'avoid'] as const;
export const RiskTreatmentType = z.enum(RISK_TREATMENT_TYPES).meta({
  description:
    "What the treatment does once implemented: `mitigate` lowers the residual likelihood and/or impact by the stated steps (floor 1); `transfer` lowers the residual impact by `impactReduction` steps (default 1); `avoid` sets the residual likelihood to 1; `accept` leaves the residual as it is and is implemented by the accountable owner's sign-off.",
});

const TreatmentFields = {
  type: RiskTreatmentType,
  description: z.string().min(1).max(2000).meta({ description: 'What is done, up to 2,000 characters.' }),
  likelihoodReduction: z
    .int()
    .min(0)
    .max(4)
    .optional()
    .meta({ description: 'Steps the residual likelihood goes down when implemented (`mitigate` only), 0 to 4; 0 when absent.' }),
  impactReduction: z.int().min(0).max(4).optional().meta({
    description: 'Steps the residual impact goes down when implemented (`mitigate` and `transfer`), 0 to 4; for `transfer` 1 when absent.',
  }),
  controlIds: z
    .array(ControlRef.meta({ description: 'Id of a control (`AIA-RMS-01`).' }))
    .max(50)
    .optional()
    .meta({ description: 'Controls that implement the treatment (none when absent).' }),
};

type TreatmentInput = {
  type: (typeof RISK_TREATMENT_TYPES)[number];
  likelihoodReduction?: number | undefined;
  impactReduction?: number | undefined;
};

/** The reductions a treatment type admits: 422 naming the field otherwise. */
function checkReductions(t: TreatmentInput, ctx: z.RefinementCtx, at: (string | number)[] = []): void {
  const l = t.likelihoodReduction ?? 0;
  const i = t.impactReduction ?? 0;
  const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [...at, field], message });
  if (t.type === 'mitigate' && l + i === 0)
    issue('likelihoodReduction', 'a mitigate treatment lowers the likelihood or the impact by at least one step');
  if (t.type === 'transfer' && l > 0) issue('likelihoodReduction', 'a transfer treatment lowers the impact only');
  if ((t.type === 'accept' || t.type === 'avoid') && l > 0) issue('likelihoodReduction', `an ${t.type} treatment takes no reduction`);
  if ((t.type === 'accept' || t.type === 'avoid') && i > 0) issue('impactReduction', `an ${t.type} treatment takes no reduction`);
}

/** What the example treatment does (its create request and its record). */
const TREATMENT_EXAMPLE = {
  type: 'mitigate',
  description: 'Human review of every declined application.',
  likelihoodReduction: 1,
  impactReduction: 1,
  controlIds: ['AIA-HO-01'],
};

const InlineTreatment = z
  .strictObject(TreatmentFields)
  .superRefine((t, ctx) => checkReductions(t, ctx))
  .meta({ description: 'A treatment recorded with the risk, `planned`.' });

export const RiskTreatment = z
  .object({
    object: objectOf('svc.risk_register.treatment'),
    id: prefixedId('rtr', EXAMPLE_TREATMENT),
    riskId: riskRef('Id of the risk the treatment treats.'),
    type: RiskTreatmentType,
    description: z.string().meta({ description: 'What is done.' }),
    likelihoodReduction: z.int().min(0).max(4).meta({ description: 'Steps the residual likelihood goes down when implemented.' }),
    impactReduction: z.int().min(0).max(4).meta({ description: 'Steps the residual impact goes down when implemented.' }),
    controlIds: z.array(z.string()).meta({ description: 'Controls that implement the treatment.' }),
    status: z.enum(['planned', 'implemented']).meta({
      description: '`planned` until `implement` (or, for `accept`, the sign-off); only implemented treatments move the residual.',
    }),
    implementedAt: Timestamp.nullable().meta({ description: 'When it was implemented (ISO 8601 UTC); null while planned.' }),
    ...stamps(),
  })
  .meta({
    id: 'RiskTreatment',
    examples: [
      {
        object: 'svc.risk_register.treatment',
        id: EXAMPLE_TREATMENT,
        riskId: EXAMPLE_RISK,
        ...TREATMENT_EXAMPLE,
        status: 'planned',
        implementedAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateRiskTreatmentBody = z
  .strictObject({ riskId: riskRef('Id of the risk to treat; 404 when it is not a risk of the tenant.'), ...TreatmentFields })
  .superRefine((t, ctx) => checkReductions(t, ctx))
  .meta({
    id: 'CreateRiskTreatmentRequest',
    examples: [
      {
        riskId: EXAMPLE_RISK,
        ...TREATMENT_EXAMPLE,
      },
    ],
  });

// ---------------------------------------------------------------- risks

/** What the example risk is about (its create request and its record). */
const RISK_EXAMPLE = {
  title: 'Biased credit-scoring model',
  description: 'The model declines applicants of protected groups more often.',
  domain: 'ai',
  area: 'Lending',
};

export const Risk = z
  .object({
    object: objectOf('svc.risk_register.risk'),
    id: RiskId,
    title: z.string().meta({ description: 'Short name of the risk.' }),
    description: z.string().nullable().meta({ description: 'What could happen and why; null when not given.' }),
    domain: RiskDomain,
    area: z.string().nullable().meta({ description: 'Business area the risk sits in (`Lending`); null when not given.' }),
    ownerId: UserId.nullable().meta({
      description:
        'Accountable owner, a person of `/v1/stakeholders/users`; only this person may sign the risk off. Null when not assigned.',
    }),
    controlIds: z.array(z.string()).meta({ description: 'Controls that address the risk.' }),
    inherentLikelihood: Level('Likelihood before any treatment'),
    inherentImpact: Level('Impact before any treatment'),
    inherentScore: Score('Inherent score'),
    inherentRating: RiskRating,
    residualLikelihood: Level('Likelihood after the implemented treatments (computed)'),
    residualImpact: Level('Impact after the implemented treatments (computed)'),
    residualScore: Score('Residual score'),
    residualRating: RiskRating,
    status: RiskStatus,
    reviewEveryDays: z.int().min(1).max(730).meta({ description: 'Days between periodic reviews.' }),
    lastReviewedAt: Timestamp.nullable().meta({ description: 'When the latest review took place; null before the first.' }),
    nextReviewAt: Timestamp.meta({ description: '`(lastReviewedAt, or createdAt before any review) + reviewEveryDays` (ISO 8601 UTC).' }),
    ...stamps(),
  })
  .meta({
    id: 'Risk',
    examples: [
      {
        object: 'svc.risk_register.risk',
        id: EXAMPLE_RISK,
        ...RISK_EXAMPLE,
        ownerId: EXAMPLE_USER,
        controlIds: ['AIA-RMS-01'],
        inherentLikelihood: 4,
        inherentImpact: 5,
        inherentScore: 20,
        inherentRating: 'critical',
        residualLikelihood: 4,
        residualImpact: 5,
        residualScore: 20,
        residualRating: 'critical',
        status: 'open',
        reviewEveryDays: 90,
        lastReviewedAt: null,
        nextReviewAt: EXAMPLE_NEXT_REVIEW,
        ...exampleStamps(),
      },
    ],
  });

export const CreateRiskBody = z
  .strictObject({
    title: z.string().min(1).max(200).meta({ description: 'Short name of the risk.' }),
    description: z.string().min(1).max(4000).optional().meta({ description: 'What could happen and why, up to 4,000 characters.' }),
    domain: RiskDomain,
    area: z.string().min(1).max(100).optional().meta({ description: 'Business area the risk sits in (`Lending`), up to 100 characters.' }),
    ownerId: UserId.optional().meta({
      description: 'Accountable owner: an active person of `/v1/stakeholders/users`; an unknown or inactive person is 422.',
    }),
    controlIds: z
      .array(ControlRef.meta({ description: 'Id of a control (`AIA-RMS-01`).' }))
      .max(50)
      .optional()
      .meta({ description: 'Controls that address the risk (none when absent).' }),
    inherentLikelihood: Level('Likelihood before any treatment'),
    inherentImpact: Level('Impact before any treatment'),
    reviewEveryDays: z.int().min(1).max(730).optional().meta({ description: 'Days between periodic reviews, 1 to 730; 90 when absent.' }),
    treatments: z.array(InlineTreatment).max(20).optional().meta({
      description: 'Treatments to record with the risk, all `planned` (the residual equals the inherent until one is implemented).',
    }),
  })
  .meta({
    id: 'CreateRiskRequest',
    examples: [
      {
        ...RISK_EXAMPLE,
        controlIds: ['AIA-RMS-01'],
        inherentLikelihood: 4,
        inherentImpact: 5,
        reviewEveryDays: 90,
      },
    ],
  });

// ---------------------------------------------------------------- scores, heatmap

const ScorePoint = z.object({
  likelihood: Level('Likelihood'),
  impact: Level('Impact'),
  score: Score('Score'),
  rating: RiskRating,
});

/** The example risk's scores: assessed 4 x 5, one implemented treatment brought it to 3 x 4. */
const INHERENT_EXAMPLE = { likelihood: 4, impact: 5, score: 20, rating: 'critical' };
const RESIDUAL_EXAMPLE = { likelihood: 3, impact: 4, score: 12, rating: 'high' };

export const RiskScore = z
  .object({
    object: objectOf('svc.risk_register.score'),
    riskId: RiskId,
    title: z.string().meta({ description: 'Title of the risk.' }),
    status: RiskStatus,
    inherent: ScorePoint.meta({ description: 'Before any treatment.' }),
    residual: ScorePoint.meta({ description: 'After the implemented treatments, computed.' }),
    reduction: z
      .int()
      .min(0)
      .max(24)
      .meta({ description: '`inherent.score - residual.score`: points the implemented treatments removed.' }),
    implementedTreatmentIds: z
      .array(z.string())
      .meta({ description: 'Implemented treatments of the risk, in the order they were implemented.' }),
  })
  .meta({
    id: 'RiskScore',
    examples: [
      {
        object: 'svc.risk_register.score',
        riskId: EXAMPLE_RISK,
        title: 'Biased credit-scoring model',
        status: 'treated',
        inherent: INHERENT_EXAMPLE,
        residual: RESIDUAL_EXAMPLE,
        reduction: 8,
        implementedTreatmentIds: [EXAMPLE_TREATMENT],
      },
    ],
  });

export const RiskScoreHistory = z
  .object({
    object: objectOf('svc.risk_register.score_history'),
    riskId: RiskId,
    inherent: ScorePoint.meta({ description: 'Before any treatment.' }),
    residual: ScorePoint.meta({ description: 'Current residual, after every implemented treatment.' }),
    steps: z
      .array(
        ScorePoint.extend({
          at: Timestamp.meta({ description: 'When the score took this value: the risk was recorded, or the treatment implemented.' }),
          cause: z
            .enum(['assessed', 'treatment'])
            .meta({ description: '`assessed`: the inherent assessment; `treatment`: an implemented treatment.' }),
          treatmentId: z.string().nullable().meta({ description: 'The implemented treatment; null for the assessment.' }),
          treatmentType: RiskTreatmentType.nullable().meta({ description: "The treatment's type; null for the assessment." }),
          moved: z.boolean().meta({ description: 'Whether this step changed the residual score.' }),
        }),
      )
      .meta({ description: 'The residual after the assessment and after each implemented treatment, oldest first.' }),
    acceptedResidual: z
      .object({
        signOffId: z.string().meta({ description: 'The latest sign-off of the risk.' }),
        signerId: z.string().meta({ description: 'The accountable owner who signed.' }),
        score: Score('Residual score accepted'),
        signedAt: Timestamp.meta({ description: 'When the owner signed (ISO 8601 UTC).' }),
        current: z.boolean().meta({ description: 'Whether the accepted score is still the residual score.' }),
      })
      .nullable()
      .meta({ description: 'The residual the accountable owner last accepted; null when never signed off.' }),
  })
  .meta({
    id: 'RiskScoreHistory',
    examples: [
      {
        object: 'svc.risk_register.score_history',
        riskId: EXAMPLE_RISK,
        inherent: INHERENT_EXAMPLE,
        residual: RESIDUAL_EXAMPLE,
        steps: [
          {
            at: EXAMPLE_AT,
            cause: 'assessed',
            treatmentId: null,
            treatmentType: null,
            moved: false,
            ...INHERENT_EXAMPLE,
          },
          {
            at: '2026-11-23T10:00:00.000Z',
            cause: 'treatment',
            treatmentId: EXAMPLE_TREATMENT,
            treatmentType: 'mitigate',
            moved: true,
            ...RESIDUAL_EXAMPLE,
          },
        ],
        acceptedResidual: null,
      },
    ],
  });

export const RiskHeatmapBasis = z.enum(['residual', 'inherent']).meta({ description: 'Which score places a risk in the matrix.' });

export const RiskHeatmap = z
  .object({
    object: objectOf('svc.risk_register.heatmap'),
    basis: RiskHeatmapBasis,
    total: z.int().min(0).meta({ description: 'Risks counted (closed risks are left out unless `includeClosed=true`).' }),
    cells: z
      .array(
        ScorePoint.extend({
          count: z.int().min(0).meta({ description: 'Risks in the cell.' }),
          riskIds: z.array(z.string()).meta({ description: 'Ids of the risks in the cell, newest first.' }),
        }),
      )
      .length(25)
      .meta({ description: 'The 25 cells, by likelihood then impact, ascending; empty cells have count 0.' }),
    computedAt: Timestamp.meta({ description: 'When the heatmap was computed.' }),
  })
  .meta({
    id: 'RiskHeatmap',
    examples: [
      {
        object: 'svc.risk_register.heatmap',
        basis: 'residual',
        total: 1,
        // All 25 cells; the one risk of the example sits in likelihood 4, impact 5.
        cells: Array.from({ length: 25 }, (_, i) => {
          const likelihood = Math.floor(i / 5) + 1;
          const impact = (i % 5) + 1;
          const here = likelihood === 4 && impact === 5;
          return {
            likelihood,
            impact,
            score: likelihood * impact,
            rating: riskRatingOf(likelihood * impact),
            count: here ? 1 : 0,
            riskIds: here ? [EXAMPLE_RISK] : [],
          };
        }),
        computedAt: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- reviews

export const RiskReview = z
  .object({
    object: objectOf('svc.risk_register.review'),
    id: prefixedId('rrv', EXAMPLE_REVIEW),
    riskId: RiskId,
    reviewerId: UserId.nullable().meta({ description: 'The person who reviewed; null when not given.' }),
    notes: z.string().nullable().meta({ description: 'What the review found; null when not given.' }),
    reviewedAt: Timestamp.meta({ description: 'When the review took place.' }),
    nextReviewAt: Timestamp.meta({ description: "The risk's next review date once this review was recorded." }),
    ...created(),
  })
  .meta({
    id: 'RiskReview',
    examples: [
      {
        object: 'svc.risk_register.review',
        id: EXAMPLE_REVIEW,
        riskId: EXAMPLE_RISK,
        reviewerId: EXAMPLE_USER,
        notes: 'Treatments in place; likelihood unchanged.',
        reviewedAt: EXAMPLE_AT,
        nextReviewAt: EXAMPLE_NEXT_REVIEW,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateRiskReviewBody = z
  .strictObject({
    riskId: riskRef('The risk reviewed; 404 when it is not a risk of the tenant.'),
    reviewerId: UserId.optional().meta({
      description: 'The person who reviewed: a person of `/v1/stakeholders/users` (422 when unknown).',
    }),
    notes: z.string().min(1).max(4000).optional().meta({ description: 'What the review found, up to 4,000 characters.' }),
    reviewedAt: Timestamp.optional().meta({
      description: 'When the review took place (ISO 8601 UTC), not in the future; now when absent.',
    }),
  })
  .meta({
    id: 'CreateRiskReviewRequest',
    examples: [{ riskId: EXAMPLE_RISK, notes: 'Treatments in place; likelihood unchanged.' }],
  });

export const RiskReviewDue = z
  .object({
    object: objectOf('svc.risk_register.review_due'),
    riskId: RiskId,
    title: z.string().meta({ description: 'Title of the risk.' }),
    ownerId: z.string().nullable().meta({ description: 'Accountable owner of the risk.' }),
    reviewEveryDays: z.int().meta({ description: 'Days between reviews.' }),
    lastReviewedAt: Timestamp.nullable().meta({ description: 'Latest review; null before the first.' }),
    nextReviewAt: Timestamp.meta({ description: 'When the next review is due.' }),
    overdue: z.boolean().meta({ description: 'True when `nextReviewAt` is in the past at the time of the response.' }),
    daysOverdue: z.int().min(0).meta({ description: 'Whole days since `nextReviewAt`; 0 when not overdue.' }),
  })
  .meta({
    id: 'RiskReviewDue',
    examples: [
      {
        object: 'svc.risk_register.review_due',
        riskId: EXAMPLE_RISK,
        title: 'Biased credit-scoring model',
        ownerId: EXAMPLE_USER,
        reviewEveryDays: 90,
        lastReviewedAt: null,
        nextReviewAt: EXAMPLE_NEXT_REVIEW,
        overdue: false,
        daysOverdue: 0,
      },
    ],
  });

// ---------------------------------------------------------------- sign-off

export const RiskSignOff = z
  .object({
    object: objectOf('svc.risk_register.sign_off'),
    id: prefixedId('rso', EXAMPLE_SIGN_OFF),
    riskId: RiskId,
    signerId: userRef('The accountable owner who signed.'),
    statement: z.string().nullable().meta({ description: "The owner's words; null when not given." }),
    residualLikelihood: Level('Residual likelihood accepted'),
    residualImpact: Level('Residual impact accepted'),
    residualScore: Score('Residual score accepted'),
    residualRating: RiskRating,
    treatmentIds: z
      .array(z.string())
      .meta({ description: "The risk's implemented treatments at signing, including the `accept` treatments the sign-off implemented." }),
    signedAt: Timestamp.meta({ description: 'When the owner signed (ISO 8601 UTC).' }),
    createdBy: z.string().meta({ description: CREATED_BY_DESCRIPTION }),
  })
  .meta({
    id: 'RiskSignOff',
    examples: [
      {
        object: 'svc.risk_register.sign_off',
        id: EXAMPLE_SIGN_OFF,
        riskId: EXAMPLE_RISK,
        signerId: EXAMPLE_USER,
        statement: 'Residual risk accepted until the next model release.',
        residualLikelihood: 3,
        residualImpact: 4,
        residualScore: 12,
        residualRating: 'high',
        treatmentIds: [EXAMPLE_TREATMENT],
        signedAt: EXAMPLE_AT,
        createdBy: EXAMPLE_KEY,
      },
    ],
  });

export const CreateRiskSignOffBody = z
  .strictObject({
    riskId: riskRef('The risk whose residual is accepted; 404 when it is not a risk of the tenant.'),
    signerId: userRef(
      "The person signing, who is always the person the credential is bound to: absent means that person; naming anyone else is 403. They must be the risk's accountable owner (`ownerId`), else 403.",
    ).optional(),
    statement: z.string().min(1).max(2000).optional().meta({ description: "The owner's words, up to 2,000 characters." }),
  })
  .meta({
    id: 'CreateRiskSignOffRequest',
    examples: [{ riskId: EXAMPLE_RISK, signerId: EXAMPLE_USER, statement: 'Residual risk accepted until the next model release.' }],
  });

// ---------------------------------------------------------------- router

claimIdPrefix('rso', 'svc.risk_register.sign_off');
