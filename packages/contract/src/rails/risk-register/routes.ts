import { z } from 'zod';
import { get, policyOf } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { listOf, PaginationQuery, UserId } from '../../shared/common.ts';
import {
  CreateRiskBody,
  CreateRiskReviewBody,
  CreateRiskSignOffBody,
  CreateRiskTreatmentBody,
  Risk,
  RiskDomain,
  RiskHeatmap,
  RiskHeatmapBasis,
  RiskId,
  RiskReview,
  RiskReviewDue,
  RiskScore,
  RiskScoreHistory,
  RiskSignOff,
  RiskStatus,
  RiskTreatment,
  RiskTreatmentType,
} from './schemas.ts';

/** The risk register rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- risks

export const riskRegisterRisks = resource({
  rail: 'risk_register',
  path: 'risks',
  name: 'risk',
  label: { one: 'risk', many: 'risks' },
  idPrefix: 'rsk',
  record: Risk,
  statusField: 'status',
  filters: {
    status: RiskStatus.optional().meta({ description: 'Only risks in this status.' }),
    domain: RiskDomain.optional().meta({ description: 'Only risks of this domain.' }),
    area: z.string().min(1).max(100).optional().meta({ description: 'Only risks of this business area (exact match).' }),
  },
  create: {
    body: CreateRiskBody,
    summary: 'Record a risk',
    description:
      'Records a risk with its inherent likelihood and impact (1 to 5 each); the server computes `inherentScore` (likelihood x impact), the ratings, and the residual values, equal to the inherent until a treatment is implemented. `nextReviewAt` is `createdAt + reviewEveryDays`. Treatments given inline are recorded `planned`. An unknown or inactive `ownerId` is 422.',
    eventSummary: 'A risk was recorded in the register.',
  },
  transitions: {
    close: {
      from: ['open', 'treated', 'accepted'],
      to: 'closed',
      summary: 'Close a risk',
      description:
        'Closes a risk that no longer applies (final: record a new risk if it returns); it leaves the heatmap, the reviews due and the risk views, and takes no more treatments, reviews or sign-offs.',
    },
  },
});

const TREATMENT_CREATE_DESCRIPTION =
  'Records a `planned` treatment of the risk `riskId` (404 when not a risk of the tenant; 409 when the risk is closed). The reductions a type admits are checked (422 naming the field): `mitigate` needs a likelihood or impact reduction, `transfer` an impact reduction only (1 when absent), `accept` and `avoid` none. Nothing moves until `implement`.';

export const riskTreatments = resource({
  rail: 'risk_register',
  path: 'treatments',
  name: 'treatment',
  label: { one: 'treatment', many: 'treatments' },
  idPrefix: 'rtr',
  record: RiskTreatment,
  statusField: 'status',
  filters: {
    riskId: RiskId.optional().meta({ description: 'Only treatments of this risk.' }),
    status: z.enum(['planned', 'implemented']).optional().meta({ description: 'Only treatments in this status.' }),
    type: RiskTreatmentType.optional().meta({ description: 'Only treatments of this type.' }),
  },
  setup: [
    {
      method: 'POST',
      path: '/v1/risk-register/risks',
      body: {
        title: 'Vendor outage halts loan decisions',
        domain: 'third-party',
        area: 'Lending',
        inherentLikelihood: 3,
        inherentImpact: 4,
        treatments: [{ type: 'mitigate', description: 'Second scoring provider on standby.', likelihoodReduction: 1 }],
      },
      as: 'risk',
    },
  ],
  create: {
    body: CreateRiskTreatmentBody,
    fixture: { riskId: '{{risk.id}}', type: 'mitigate', description: 'Human review {{unique}}', likelihoodReduction: 1 },
    summary: 'Plan a treatment of a risk',
    description: TREATMENT_CREATE_DESCRIPTION,
    eventSummary: 'A treatment of a risk was planned.',
  },
  transitions: {
    implement: {
      from: ['planned'],
      to: 'implemented',
      summary: 'Implement a treatment',
      description:
        "Marks the treatment implemented and recomputes its risk's residual likelihood and impact from every implemented treatment (the risk becomes `treated` when its residual moved). An `accept` treatment is implemented by the owner's sign-off instead: 409 here. A treatment of a closed risk: 409.",
    },
  },
});

/** The periodic reviews of the risks; recording one moves its risk's next review date (the store's prepare step). */
export const riskReviews = resource({
  rail: 'risk_register',
  path: 'reviews',
  name: 'review',
  label: { one: 'review', many: 'reviews' },
  idPrefix: 'rrv',
  record: RiskReview,
  get: false,
  filters: { riskId: RiskId.optional().meta({ description: 'Only reviews of this risk.' }) },
  notes: { list: 'The periodic reviews recorded of the risks.' },
  setup: [
    {
      method: 'POST',
      path: '/v1/risk-register/risks',
      body: { title: 'Vendor outage halts loan decisions', domain: 'third-party', inherentLikelihood: 3, inherentImpact: 4 },
      as: 'risk',
    },
  ],
  create: {
    body: CreateRiskReviewBody,
    action: 'risk_review.created',
    fixture: { riskId: '{{risk.id}}', notes: 'Treatments in place; likelihood unchanged.' },
    summary: 'Record a periodic review',
    description:
      "Records a review of the risk and moves its next review date to `reviewedAt + reviewEveryDays` (a review older than the latest one keeps the latest as the reference); the audit event also names the risk's next review date before the review (`previousNextReviewAt`). 404 for a risk that is not the tenant's, 409 for a closed risk, 422 for an unknown reviewer or a `reviewedAt` in the future.",
    eventSummary: 'A periodic review of a risk was recorded.',
  },
});

/** The accountable owner's acceptance of a risk's residual, made with the owner's own key. */
export const riskSignOffs = resource({
  rail: 'risk_register',
  path: 'sign-off',
  name: 'sign_off',
  label: { one: 'sign-off', many: 'sign-offs' },
  idPrefix: 'rso',
  record: RiskSignOff,
  get: false,
  filters: { riskId: RiskId.optional().meta({ description: 'Only sign-offs of this risk.' }) },
  notes: { list: 'Sign-offs of residual risks.' },
  setup: [
    { method: 'POST', path: '/v1/stakeholders/users', body: { name: 'Risk Owner', email: 'owner.{{unique}}@example.com' }, as: 'owner' },
    {
      method: 'POST',
      path: '/v1/risk-register/risks',
      body: {
        title: 'Vendor outage halts loan decisions',
        domain: 'third-party',
        inherentLikelihood: 3,
        inherentImpact: 4,
        ownerId: '{{owner.id}}',
      },
      as: 'risk',
    },
  ],
  create: {
    body: CreateRiskSignOffBody,
    action: 'risk.signed_off',
    grant: 'approve',
    person: { field: 'signerId', act: 'sign a risk off', fixture: '{{owner.id}}' },
    fixture: { riskId: '{{risk.id}}', statement: 'Residual risk accepted until the next model release.' },
    summary: "Sign off a risk's residual as its accountable owner",
    description:
      "Records that the risk's accountable owner accepts its current residual: who, when and which residual (likelihood, impact, score, rating) with the treatments in place. The risk becomes `accepted` and its planned `accept` treatments are implemented. The signer must be the risk's `ownerId`: anyone else is 403 `forbidden`; a risk with no owner, an inactive owner, or a risk already `accepted` or `closed` is 409 `conflict` (also for two sign-offs at once: the second finds the risk accepted).",
    eventSummary: "A risk's accountable owner accepted its residual.",
  },
});

// ---------------------------------------------------------------- router

const { read } = policyOf('risk_register');
const RiskParams = z.object({ riskId: RiskId });
const includeClosed = z
  .enum(['true', 'false'])
  .optional()
  .meta({ description: '`true` counts closed risks too; by default they are left out.' });

export const riskRegisterRouter = railRouter('risk_register', {
  risks: riskRegisterRisks.routes,
  treatments: riskTreatments.routes,
  scores: {
    list: get(
      '/scores',
      {
        query: PaginationQuery.extend({
          status: RiskStatus.optional().meta({ description: 'Only risks in this status.' }),
          domain: RiskDomain.optional().meta({ description: 'Only risks of this domain.' }),
        }),
      },
      listOf(RiskScore),
      read,
    ).doc(
      'Current scores of the risks',
      'Inherent and residual scores of each risk, newest risk first, with the reduction the implemented treatments brought and which treatments they are. `{ data, cursor }` (`limit` 1 to 200, default 50). Needs `risk_register:read`.',
    ),
    history: get('/scores/:riskId', { pathParams: RiskParams }, RiskScoreHistory, read).doc(
      'Score history of a risk',
      "The residual of the risk after its assessment and after each implemented treatment in order, which treatments moved it, and the residual its owner last accepted. Computed from the treatments. 404 for a risk that is not the tenant's. Needs `risk_register:read`.",
    ),
  },
  heatmap: get(
    '/heatmap',
    {
      query: z.object({
        basis: RiskHeatmapBasis.default('residual').meta({ description: '`residual` (default) or `inherent`: which score places a risk.' }),
        includeClosed,
        domain: RiskDomain.optional().meta({ description: 'Only risks of this domain.' }),
      }),
    },
    RiskHeatmap,
    read,
  ).doc(
    '5x5 heatmap of the risks',
    'Counts the risks in each of the 25 likelihood x impact cells, by residual (default) or inherent score, with the ids of the risks per cell. Closed risks are left out unless `includeClosed=true`. Needs `risk_register:read`.',
  ),
  reviews: {
    // The reviews' list and create are the kit's; the schedule is computed.
    list: riskReviews.routes.list,
    create: riskReviews.routes.create,
    due: get(
      '/reviews/due',
      {
        query: PaginationQuery.extend({
          overdue: z
            .enum(['true', 'false'])
            .optional()
            .meta({ description: '`true`: only risks whose next review date has passed; `false`: only those not yet due; absent: all.' }),
          ownerId: UserId.optional().meta({ description: 'Only risks of this accountable owner.' }),
        }),
      },
      listOf(RiskReviewDue),
      read,
    ).doc(
      'Review schedule of the risks (overdue with `overdue=true`)',
      'For each risk that is not closed: when it was last reviewed, when the next review is due (`(lastReviewedAt or createdAt) + reviewEveryDays`) and whether that is past. Newest risk first, `{ data, cursor }`. Needs `risk_register:read`.',
    ),
  },
  signOff: {
    list: riskSignOffs.routes.list,
    create: riskSignOffs.routes.create,
  },
});

/** Event types the risk_register rail emits. */
export const riskRegisterEvents = [...riskRegisterRisks.events, ...riskTreatments.events, ...riskReviews.events, ...riskSignOffs.events];
