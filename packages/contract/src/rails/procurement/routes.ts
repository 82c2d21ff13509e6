import { z } from 'zod';
import { get, patch, policyOf, post, stateful } from '../../platform/declare.ts';
import { railRouter, resource, under } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { idParams } from '../../shared/records.ts';
import {
  Award,
  Bid,
  CreateAwardBody,
  CreateBidBody,
  CreateOnboardingBody,
  CreateRfpBody,
  Rfp,
  RfpId,
  RfpScoring,
  RfpStatus,
  SupplierOnboarding,
  UpdateRfpWeightsBody,
} from './schemas.ts';

/** The procurement rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- RFPs

export const procurementRfps = resource({
  rail: 'procurement',
  path: 'rfp',
  name: 'rfp',
  label: { one: 'RFP', many: 'RFPs' },
  idPrefix: 'rfp',
  record: Rfp,
  statusField: 'status',
  filters: { status: RfpStatus.optional().meta({ description: 'Only RFPs in this status.' }) },
  create: {
    body: CreateRfpBody,
    summary: 'Create an RFP',
    description: 'Creates a `draft` RFP with its criteria and weights (summing to 1 within 1e-9, else 422 naming `criteria`).',
    eventSummary: 'An RFP was created.',
  },
  transitions: {
    open: { from: ['draft'], to: 'open', summary: 'Open an RFP for bids' },
    evaluate: {
      from: ['open'],
      to: 'evaluating',
      action: 'rfp.evaluation_started',
      summary: 'Close bidding and start the evaluation',
      description: 'An RFP without any bid: 409 (cancel it instead).',
    },
    cancel: { from: ['draft', 'open', 'evaluating'], to: 'cancelled', action: 'rfp.cancelled', summary: 'Cancel an RFP' },
  },
});

/** The calls that bring an award about: an RFP created, opened, bid on, evaluated and awarded (`as: 'award'`). */
const AWARD_SETUP = [
  {
    method: 'POST',
    path: '/v1/procurement/rfp',
    body: {
      title: 'Managed hosting',
      criteria: [
        { key: 'price', name: 'Total cost', weight: 0.6 },
        { key: 'quality', name: 'Quality', weight: 0.4 },
      ],
    },
    as: 'rfp',
  },
  { method: 'POST', path: '/v1/procurement/rfp/{{rfp.id}}/open', body: {} },
  {
    method: 'POST',
    path: '/v1/procurement/rfp/{{rfp.id}}/bids',
    // A supplier name of its own: onboarding makes it a vendor, whose name is unique in the tenant.
    body: { supplierName: 'Acme Hosting {{unique}}', scores: { price: 8, quality: 7 } },
    as: 'bid',
  },
  { method: 'POST', path: '/v1/procurement/rfp/{{rfp.id}}/evaluate', body: {} },
  {
    method: 'POST',
    path: '/v1/procurement/rfp/{{rfp.id}}/award',
    body: { bidId: '{{bid.id}}', rationale: 'Best weighted score.' },
    as: 'award',
  },
] as const;

// ---------------------------------------------------------------- bids

/** The bids on an RFP: recorded while it is open, listed with their totals at its current weights. */
export const procurementBids = resource({
  rail: 'procurement',
  path: 'bids',
  parent: under(procurementRfps, { field: 'rfpId', createIn: ['open'], step: 'rfp' }),
  name: 'bid',
  label: { one: 'bid', many: 'bids' },
  idPrefix: 'bid',
  record: Bid,
  get: false,
  notes: { list: 'Each bid with its total at the RFP’s current weights.' },
  create: {
    body: CreateBidBody,
    action: 'bid.submitted',
    summary: 'Record a bid on an RFP',
    description:
      'Records a supplier’s bid with its score (0 to 10) on every criterion of the RFP and no other (422 naming `scores.<key>`); a supplier with a bid on the RFP already (names compared without case) is 409.',
    eventSummary: 'A bid on an RFP was recorded.',
    fixture: { supplierName: 'Acme Hosting {{unique}}', scores: { price: 8, quality: 6 } },
  },
  // The RFP created and opened, as for an award.
  setup: AWARD_SETUP.slice(0, 2),
});

// ---------------------------------------------------------------- awards

/**
 * The awards' list. An award is made by `POST /rfp/:id/award` (a move of the RFP that answers with
 * the award, 201): its setup walks an RFP from draft to awarded, the way a client does.
 */
export const procurementAwards = resource({
  rail: 'procurement',
  path: 'awards',
  name: 'award',
  label: { one: 'award', many: 'awards' },
  idPrefix: 'awd',
  record: Award,
  get: false,
  filters: { rfpId: RfpId.optional().meta({ description: 'Only the award of this RFP.' }) },
  notes: { list: 'The RFPs awarded, each with the bid that won, its rank and the ranking as it stood.' },
  setup: AWARD_SETUP,
});

// ---------------------------------------------------------------- onboarding

/** An awarded supplier made a vendor of the vendor-risk rail, once per award. */
export const procurementOnboardings = resource({
  rail: 'procurement',
  path: 'onboarding',
  name: 'onboarding',
  label: { one: 'supplier onboarding', many: 'supplier onboardings' },
  idPrefix: 'sob',
  record: SupplierOnboarding,
  get: false,
  filters: { rfpId: RfpId.optional().meta({ description: 'Only onboardings of this RFP.' }) },
  notes: { list: 'Onboardings of awarded suppliers, each with the vendor it created.' },
  create: {
    body: CreateOnboardingBody,
    action: 'supplier.onboarded',
    summary: 'Onboard an awarded supplier as a vendor',
    description:
      'Creates the awarded supplier as a vendor in `/v1/vendor-risk/vendors` (audited there as `vendor.added`, which is emitted) and links it to the award. An award of another tenant is 404; one onboarded already is 409, as is a vendor name the tenant uses.',
    eventSummary: 'An awarded supplier was onboarded as a vendor.',
    fixture: { awardId: '{{award.id}}' },
  },
  setup: AWARD_SETUP,
});

// ---------------------------------------------------------------- router

const { read, write, changes } = policyOf('procurement');
const RfpParams = idParams('rfp');
const ByRfp = { pathParams: RfpParams };

export const procurementRouter = railRouter('procurement', {
  rfp: {
    ...procurementRfps.routes,
    updateWeights: patch(
      '/rfp/:id/weights',
      { ...ByRfp, body: UpdateRfpWeightsBody },
      RfpScoring,
      stateful(write('rfp.weights_changed')),
    ).doc(
      'Change the weights of the criteria',
      'Sets the weight of every criterion (summing to 1 within 1e-9, else 422 naming `criteria`) and returns the ranking recomputed from the stored bid scores. Allowed while the RFP is `draft`, `open` or `evaluating`; an awarded or cancelled RFP is 409. Needs `procurement:write`; audited as `rfp.weights_changed`.',
    ),
    createBid: procurementBids.routes.create,
    listBids: procurementBids.routes.list,
    award: post(
      '/rfp/:id/award',
      { ...ByRfp, body: CreateAwardBody },
      { 201: Award },
      stateful(changes('procurement:approve', 'rfp.awarded')),
    ).doc(
      'Award an RFP to a bid',
      'Awards the RFP to one of its bids with a rationale, keeping the ranking as it stands; the RFP becomes `awarded` (final). Only from `evaluating` (409 naming the current state otherwise); a bid of another RFP is 422. Returns 201 with the award, id `awd_<ULID>`. Needs `procurement:approve`; audited as `rfp.awarded`.',
    ),
  },
  scoring: get('/scoring/:rfpId', { pathParams: z.object({ rfpId: RfpId }) }, RfpScoring, read).doc(
    'Weighted scoring and ranking of an RFP’s bids',
    'Computes each bid’s total as the weighted sum of its stored criterion scores with the RFP’s current weights, and ranks the bids. Needs `procurement:read`.',
  ),
  awards: procurementAwards.routes.list,
  onboarding: { list: procurementOnboardings.routes.list, create: procurementOnboardings.routes.create },
});

/** Event types the procurement rail emits. */
export const procurementEvents: ReturnType<typeof eventType>[] = [
  ...procurementRfps.events,
  eventType('rfp.weights_changed', 'The weights of an RFP’s criteria changed; the ranking is recomputed.', Rfp),
  ...procurementBids.events,
  eventType('rfp.awarded', 'An RFP was awarded to a bid.', Award),
  ...procurementOnboardings.events,
];
