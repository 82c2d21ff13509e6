import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { meta } from '../meta.ts';
import { claimIdPrefix, railRouter, resource } from '../resource.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, idParams, objectField, stamps } from '../shared/records.ts';
import { eventType } from '../webhook-events.ts';
import { VENDOR_DATA_ACCESS, Vendor, VendorCriticality, VendorDataAccess } from './vendor-risk.ts';

/**
 * The procurement rail (`/v1/procurement`, enterprise): RFPs with weighted criteria (weights sum
 * to 1), bids scored 0 to 10 per criterion, the weighted ranking (recomputed from the stored
 * scores whenever it is read, so a change of weights re-ranks at once), the award of one bid with
 * a rationale, and the onboarding of the awarded supplier, which creates the vendor in the
 * vendor_risk rail.
 *
 * Lifecycle of an RFP: `draft` -> `open` (bids accepted) -> `evaluating` (needs a bid) ->
 * `awarded` (through the award), or `cancelled` from any of the first three.
 */

/** The `object` field of a procurement record; every description names `svc.procurement.rfp` as its example. */
const objectOf = <const T extends string>(name: T) => objectField(name, 'svc.procurement.rfp');

const EXAMPLE_RFP = exampleId('rfp');
const EXAMPLE_BID = exampleId('bid');
const EXAMPLE_AWARD = exampleId('awd');
const EXAMPLE_ONBOARDING = exampleId('sob');
const EXAMPLE_VENDOR = exampleId('vnd');

/** The example stamps of a record that is never changed (no `updatedAt`). */
const EXAMPLE_CREATED = { createdBy: EXAMPLE_KEY, createdAt: EXAMPLE_AT };

/** The example RFP's title, criteria, supplier and the supplier's bid. */
const EXAMPLE_TITLE = 'Managed hosting 2027';
const EXAMPLE_CRITERIA = [
  { key: 'price', name: 'Total cost over three years', weight: 0.5 },
  { key: 'quality', name: 'Service quality and security', weight: 0.3 },
  { key: 'delivery', name: 'Time to onboard', weight: 0.2 },
];
const EXAMPLE_SUPPLIER = 'Acme Cloud Hosting';
const EXAMPLE_SCORES = { price: 8, quality: 6, delivery: 9 };
const EXAMPLE_RATIONALE = 'Best weighted score; references checked.';

/** Tolerance of the sum of the weights. */
export const WEIGHT_SUM_TOLERANCE = 1e-9;

export const RfpId = prefixedId('rfp', EXAMPLE_RFP);
const BidId = prefixedId('bid', EXAMPLE_BID);
const AwardId = prefixedId('awd', EXAMPLE_AWARD);

export const RFP_STATUSES = ['draft', 'open', 'evaluating', 'awarded', 'cancelled'] as const;
export const RfpStatus = z.enum(RFP_STATUSES).meta({
  description:
    '`draft` (criteria and weights set), `open` (bids accepted), `evaluating` (bids closed, ranking compared), `awarded` (one bid won; final) or `cancelled` (final).',
});

const CriterionKey = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[a-z][a-z0-9_]*$/)
  .meta({ description: 'Key of a criterion: lowercase letters, digits and `_`, starting with a letter (`price`).' });
const Weight = z
  .number()
  .min(0)
  .max(1)
  .meta({ description: 'Weight of the criterion, 0 to 1; the weights of an RFP sum to 1 (within 1e-9).' });
const BidScore = z.number().min(0).max(10).meta({ description: 'Score of the bid on the criterion, 0 to 10.' });

/** 422 naming `criteria` unless the weights sum to 1; `criteria[i].key` when a key repeats. */
function checkCriteria(criteria: readonly { key: string; weight: number }[], ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  criteria.forEach((c, i) => {
    if (seen.has(c.key)) ctx.addIssue({ code: 'custom', path: ['criteria', i, 'key'], message: `criterion ${c.key} is listed twice` });
    seen.add(c.key);
  });
  const sum = criteria.reduce((s, c) => s + c.weight, 0);
  if (Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) {
    ctx.addIssue({ code: 'custom', path: ['criteria'], message: `the weights sum to ${sum}, not 1` });
  }
}

// ---------------------------------------------------------------- RFPs

export const RfpCriterion = z
  .object({
    key: CriterionKey,
    name: z.string().meta({ description: 'What the criterion assesses.' }),
    weight: Weight,
  })
  .meta({ id: 'RfpCriterion', description: 'A criterion of an RFP and its current weight.' });

export const Rfp = z
  .object({
    object: objectOf('svc.procurement.rfp'),
    id: RfpId,
    title: z.string().meta({ description: 'What is procured.' }),
    description: z.string().nullable().meta({ description: 'More detail; null when not given.' }),
    status: RfpStatus,
    criteria: z.array(RfpCriterion).meta({ description: 'The criteria in the order given, with their current weights.' }),
    weightsVersion: z.int().min(1).meta({ description: '1 at creation, +1 at each change of the weights.' }),
    awardId: AwardId.nullable().meta({ description: 'The award once awarded; null before.' }),
    openedAt: Timestamp.nullable().meta({ description: 'When it was opened for bids; null while a draft.' }),
    closedAt: Timestamp.nullable().meta({ description: 'When it was awarded or cancelled; null before.' }),
    ...stamps('When the record last changed.'),
  })
  .meta({
    id: 'Rfp',
    examples: [
      {
        object: 'svc.procurement.rfp',
        id: EXAMPLE_RFP,
        title: EXAMPLE_TITLE,
        description: null,
        status: 'draft',
        criteria: EXAMPLE_CRITERIA,
        weightsVersion: 1,
        awardId: null,
        openedAt: null,
        closedAt: null,
        ...exampleStamps(),
      },
    ],
  });

const CriterionInput = z.strictObject({
  key: CriterionKey,
  name: z.string().trim().min(1).max(200).meta({ description: 'What the criterion assesses, 1 to 200 characters.' }),
  weight: Weight,
});

export const CreateRfpBody = z
  .strictObject({
    title: z.string().trim().min(1).max(200).meta({ description: 'What is procured, 1 to 200 characters.' }),
    description: z.string().trim().min(1).max(4000).optional().meta({ description: 'More detail, up to 4,000 characters.' }),
    criteria: z.array(CriterionInput).min(1).max(20).meta({
      description: 'The criteria, 1 to 20, keys unique; the weights must sum to 1 within 1e-9 (422 naming `criteria` otherwise).',
    }),
  })
  .superRefine((b, ctx) => checkCriteria(b.criteria, ctx))
  .meta({
    id: 'CreateRfpRequest',
    examples: [{ title: EXAMPLE_TITLE, criteria: EXAMPLE_CRITERIA }],
  });

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

export const UpdateRfpWeightsBody = z
  .strictObject({
    criteria: z
      .array(z.strictObject({ key: CriterionKey, weight: Weight }))
      .min(1)
      .max(20)
      .meta({
        description:
          'The new weight of every criterion of the RFP, each key once (422 naming `criteria` when one is missing or unknown); the weights must sum to 1 within 1e-9.',
      }),
  })
  .superRefine((b, ctx) => checkCriteria(b.criteria, ctx))
  .meta({
    id: 'UpdateRfpWeightsRequest',
    examples: [
      {
        criteria: [
          { key: 'price', weight: 0.2 },
          { key: 'quality', weight: 0.6 },
          { key: 'delivery', weight: 0.2 },
        ],
      },
    ],
  });

// ---------------------------------------------------------------- bids and scoring

export const Contribution = z
  .object({
    key: CriterionKey,
    score: z.number().meta({ description: 'The bid’s score on the criterion, 0 to 10.' }),
    weight: z.number().meta({ description: 'The criterion’s current weight.' }),
    weighted: z.number().meta({ description: '`score x weight`, 6 decimals.' }),
  })
  .meta({ id: 'BidContribution', description: 'What one criterion adds to a bid’s total.' });

export const Bid = z
  .object({
    object: objectOf('svc.procurement.bid'),
    id: BidId,
    rfpId: RfpId,
    supplierName: z.string().meta({ description: 'The supplier bidding, unique within the RFP (without case).' }),
    scores: z.record(z.string(), z.number()).meta({ description: 'Score 0 to 10 per criterion key, as given.' }),
    notes: z.string().nullable().meta({ description: 'Notes of the evaluators; null when not given.' }),
    total: z.number().meta({ description: 'Weighted sum of the scores with the RFP’s current weights (6 decimals), 0 to 10.' }),
    ...created(),
  })
  .meta({
    id: 'Bid',
    examples: [
      {
        object: 'svc.procurement.bid',
        id: EXAMPLE_BID,
        rfpId: EXAMPLE_RFP,
        supplierName: EXAMPLE_SUPPLIER,
        scores: EXAMPLE_SCORES,
        notes: null,
        total: 7.6,
        ...EXAMPLE_CREATED,
      },
    ],
  });

export const CreateBidBody = z
  .strictObject({
    supplierName: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .meta({ description: 'The supplier, 1 to 200 characters; one bid per supplier and RFP (409 otherwise).' }),
    scores: z.record(CriterionKey, BidScore).meta({
      description: 'Score 0 to 10 for every criterion of the RFP, by key; a missing or unknown key is 422 naming `scores.<key>`.',
    }),
    notes: z.string().trim().min(1).max(4000).optional().meta({ description: 'Notes of the evaluators, up to 4,000 characters.' }),
  })
  .meta({
    id: 'CreateBidRequest',
    examples: [{ supplierName: EXAMPLE_SUPPLIER, scores: EXAMPLE_SCORES }],
  });

export const RankedBid = z
  .object({
    rank: z
      .int()
      .min(1)
      .meta({ description: 'Place by total, 1 first; equal totals (within 1e-9) share a place and the next place is skipped.' }),
    bidId: BidId,
    supplierName: z.string().meta({ description: 'The supplier.' }),
    total: z.number().meta({ description: 'Weighted sum of the scores, 6 decimals.' }),
    contributions: z.array(Contribution).meta({ description: 'Each criterion’s part of the total, in the RFP’s order.' }),
  })
  .meta({ id: 'RankedBid' });

export const RfpScoring = z
  .object({
    object: objectOf('svc.procurement.scoring'),
    rfpId: RfpId,
    status: RfpStatus,
    weightsVersion: z.int().min(1).meta({ description: 'Version of the weights the totals use.' }),
    criteria: z.array(RfpCriterion).meta({ description: 'The criteria with their current weights.' }),
    ranking: z.array(RankedBid).meta({ description: 'Every bid, best total first (ties: the earlier bid first).' }),
    awardedBidId: BidId.nullable().meta({ description: 'The bid that won; null before the award.' }),
  })
  .meta({
    id: 'RfpScoring',
    examples: [
      {
        object: 'svc.procurement.scoring',
        rfpId: EXAMPLE_RFP,
        status: 'evaluating',
        weightsVersion: 1,
        criteria: EXAMPLE_CRITERIA,
        ranking: [
          {
            rank: 1,
            bidId: EXAMPLE_BID,
            supplierName: EXAMPLE_SUPPLIER,
            total: 7.6,
            contributions: [
              { key: 'price', score: 8, weight: 0.5, weighted: 4 },
              { key: 'quality', score: 6, weight: 0.3, weighted: 1.8 },
              { key: 'delivery', score: 9, weight: 0.2, weighted: 1.8 },
            ],
          },
        ],
        awardedBidId: null,
      },
    ],
  });

// ---------------------------------------------------------------- awards

export const Award = z
  .object({
    object: objectOf('svc.procurement.award'),
    id: AwardId,
    rfpId: RfpId,
    bidId: BidId,
    supplierName: z.string().meta({ description: 'The supplier awarded.' }),
    rationale: z.string().meta({ description: 'Why this bid won.' }),
    totalScore: z.number().meta({ description: 'The bid’s total when awarded.' }),
    rank: z.int().min(1).meta({ description: 'The bid’s place when awarded.' }),
    topRanked: z.boolean().meta({ description: 'Whether the bid was ranked first when awarded (the rationale explains an exception).' }),
    ranking: z
      .array(
        z.object({
          rank: z.int().meta({ description: 'Place.' }),
          bidId: z.string().meta({ description: 'The bid.' }),
          supplierName: z.string().meta({ description: 'The supplier.' }),
          total: z.number().meta({ description: 'Its total.' }),
        }),
      )
      .meta({ description: 'The ranking as it stood when awarded.' }),
    ...created(),
  })
  .meta({
    id: 'Award',
    examples: [
      {
        object: 'svc.procurement.award',
        id: EXAMPLE_AWARD,
        rfpId: EXAMPLE_RFP,
        bidId: EXAMPLE_BID,
        supplierName: EXAMPLE_SUPPLIER,
        rationale: EXAMPLE_RATIONALE,
        totalScore: 7.6,
        rank: 1,
        topRanked: true,
        ranking: [{ rank: 1, bidId: EXAMPLE_BID, supplierName: EXAMPLE_SUPPLIER, total: 7.6 }],
        ...EXAMPLE_CREATED,
      },
    ],
  });

export const CreateAwardBody = z
  .strictObject({
    bidId: BidId.meta({ description: 'The winning bid: a bid of this RFP (422 otherwise).', examples: [EXAMPLE_BID] }),
    rationale: z.string().trim().min(1).max(4000).meta({ description: 'Why this bid wins, 1 to 4,000 characters.' }),
  })
  .meta({ id: 'CreateAwardRequest', examples: [{ bidId: EXAMPLE_BID, rationale: EXAMPLE_RATIONALE }] });

// ---------------------------------------------------------------- onboarding

export const SupplierOnboarding = z
  .object({
    object: objectOf('svc.procurement.onboarding'),
    id: prefixedId('sob', EXAMPLE_ONBOARDING),
    rfpId: RfpId,
    awardId: AwardId,
    bidId: BidId,
    supplierName: z.string().meta({ description: 'The supplier onboarded.' }),
    vendorId: prefixedId('vnd', EXAMPLE_VENDOR).meta({
      description: 'The vendor created in `/v1/vendor-risk/vendors`.',
      examples: [EXAMPLE_VENDOR],
    }),
    vendor: Vendor.meta({ description: 'The vendor as created.' }),
    ...created(),
  })
  .meta({
    id: 'SupplierOnboarding',
    examples: [
      {
        object: 'svc.procurement.onboarding',
        id: EXAMPLE_ONBOARDING,
        rfpId: EXAMPLE_RFP,
        awardId: EXAMPLE_AWARD,
        bidId: EXAMPLE_BID,
        supplierName: EXAMPLE_SUPPLIER,
        vendorId: EXAMPLE_VENDOR,
        vendor: {
          object: 'svc.vendor_risk.vendor',
          id: EXAMPLE_VENDOR,
          name: EXAMPLE_SUPPLIER,
          criticality: 'high',
          services: [EXAMPLE_TITLE],
          dataAccess: ['personal'],
          status: 'active',
          riskScore: 100,
          riskRating: 'critical',
          riskScoredAt: EXAMPLE_AT,
          origin: { kind: 'procurement', rfpId: EXAMPLE_RFP, awardId: EXAMPLE_AWARD, onboardingId: EXAMPLE_ONBOARDING },
          offboardedAt: null,
          ...exampleStamps(),
        },
        ...EXAMPLE_CREATED,
      },
    ],
  });

export const CreateOnboardingBody = z
  .strictObject({
    awardId: AwardId.meta({ description: 'The award whose supplier is onboarded (404 when not the tenant’s).', examples: [EXAMPLE_AWARD] }),
    vendorName: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'Name of the vendor to create; the supplier’s name when absent. A name a vendor of the tenant has is 409.' }),
    criticality: VendorCriticality.optional().meta({ description: 'Criticality of the new vendor; `medium` when absent.' }),
    services: z
      .array(z.string().trim().min(1).max(200))
      .max(50)
      .optional()
      .meta({ description: 'Services the vendor provides; the RFP’s title when absent.' }),
    dataAccess: z
      .array(VendorDataAccess)
      .max(VENDOR_DATA_ACCESS.length)
      .optional()
      .meta({ description: 'Categories of data the vendor will reach (none when absent).' }),
  })
  .meta({
    id: 'CreateSupplierOnboardingRequest',
    examples: [{ awardId: EXAMPLE_AWARD, criticality: 'high', dataAccess: ['personal'] }],
  });

// ---------------------------------------------------------------- router

claimIdPrefix('bid', 'svc.procurement.bid');
claimIdPrefix('awd', 'svc.procurement.award');
claimIdPrefix('sob', 'svc.procurement.onboarding');

const read = meta({ auth: 'tenant', rail: 'procurement', permission: 'procurement:read', mutating: false });
const write = (audit: string) => meta({ auth: 'tenant', rail: 'procurement', permission: 'procurement:write', mutating: true, audit });
const RfpParams = idParams('rfp');

export const procurementRouter = railRouter('procurement', {
  rfp: {
    ...procurementRfps.routes,
    updateWeights: {
      method: 'PATCH',
      path: '/rfp/:id/weights',
      pathParams: RfpParams,
      body: UpdateRfpWeightsBody,
      responses: { 200: RfpScoring },
      summary: 'Change the weights of the criteria',
      description:
        'Sets the weight of every criterion (summing to 1 within 1e-9, else 422 naming `criteria`) and returns the ranking recomputed from the stored bid scores. Allowed while the RFP is `draft`, `open` or `evaluating`; an awarded or cancelled RFP is 409. Needs `procurement:write`; audited as `rfp.weights_changed`.',
      metadata: { ...write('rfp.weights_changed'), stateful: true },
    },
    createBid: {
      method: 'POST',
      path: '/rfp/:id/bids',
      pathParams: RfpParams,
      body: CreateBidBody,
      responses: { 201: Bid },
      summary: 'Record a bid on an RFP',
      description:
        'Records a supplier’s bid with its score (0 to 10) on every criterion. Only while the RFP is `open` (409 otherwise); a supplier bidding twice is 409. Returns 201 with the bid, id `bid_<ULID>`. Needs `procurement:write`; audited as `bid.submitted`.',
      metadata: { ...write('bid.submitted'), stateful: true },
    },
    listBids: {
      method: 'GET',
      path: '/rfp/:id/bids',
      pathParams: RfpParams,
      query: PaginationQuery,
      responses: { 200: listOf(Bid) },
      summary: 'List the bids of an RFP',
      description:
        'The bids of the RFP, newest first, with totals at the current weights, as `{ data, cursor }`. Needs `procurement:read`.',
      metadata: read,
    },
    award: {
      method: 'POST',
      path: '/rfp/:id/award',
      pathParams: RfpParams,
      body: CreateAwardBody,
      responses: { 201: Award },
      summary: 'Award an RFP to a bid',
      description:
        'Awards the RFP to one of its bids with a rationale, keeping the ranking as it stands; the RFP becomes `awarded` (final). Only from `evaluating` (409 naming the current state otherwise); a bid of another RFP is 422. Returns 201 with the award, id `awd_<ULID>`. Needs `procurement:approve`; audited as `rfp.awarded`.',
      metadata: {
        ...meta({ auth: 'tenant', rail: 'procurement', permission: 'procurement:approve', mutating: true, audit: 'rfp.awarded' }),
        stateful: true,
      },
    },
  },
  scoring: {
    method: 'GET',
    path: '/scoring/:rfpId',
    pathParams: z.object({ rfpId: RfpId }),
    responses: { 200: RfpScoring },
    summary: 'Weighted scoring and ranking of an RFP’s bids',
    description:
      'Computes each bid’s total as the weighted sum of its stored criterion scores with the RFP’s current weights, and ranks the bids. Needs `procurement:read`.',
    metadata: read,
  },
  awards: {
    method: 'GET',
    path: '/awards',
    query: PaginationQuery.extend({ rfpId: RfpId.optional().meta({ description: 'Only the award of this RFP.' }) }),
    responses: { 200: listOf(Award) },
    summary: 'List awards',
    description: 'The tenant’s awards, newest first, as `{ data, cursor }`. Needs `procurement:read`.',
    metadata: read,
  },
  onboarding: {
    list: {
      method: 'GET',
      path: '/onboarding',
      query: PaginationQuery.extend({ rfpId: RfpId.optional().meta({ description: 'Only onboardings of this RFP.' }) }),
      responses: { 200: listOf(SupplierOnboarding) },
      summary: 'List supplier onboardings',
      description:
        'Onboardings of awarded suppliers, newest first, with the vendor each created, as `{ data, cursor }`. Needs `procurement:read`.',
      metadata: read,
    },
    create: {
      method: 'POST',
      path: '/onboarding',
      body: CreateOnboardingBody,
      responses: { 201: SupplierOnboarding },
      summary: 'Onboard an awarded supplier as a vendor',
      description:
        'Creates the awarded supplier as a vendor in `/v1/vendor-risk/vendors` (audited there as `vendor.added`, which is emitted) and links it to the award. An award onboarded already is 409, as is a vendor name the tenant uses. Returns 201, id `sob_<ULID>`. Needs `procurement:write`; audited as `supplier.onboarded`.',
      metadata: write('supplier.onboarded'),
    },
  },
});

/** Event types the procurement rail emits. */
export const procurementEvents: ReturnType<typeof eventType>[] = [
  ...procurementRfps.events,
  eventType('rfp.weights_changed', 'The weights of an RFP’s criteria changed; the ranking is recomputed.', Rfp),
  eventType('bid.submitted', 'A bid on an RFP was recorded.', Bid),
  eventType('rfp.awarded', 'An RFP was awarded to a bid.', Award),
  eventType('supplier.onboarded', 'An awarded supplier was onboarded as a vendor.', SupplierOnboarding),
];
