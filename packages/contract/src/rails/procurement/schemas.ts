import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import { VENDOR_DATA_ACCESS, Vendor, VendorCriticality, VendorDataAccess } from '../vendor-risk/schemas.ts';

/** The procurement rail's records, request bodies and their examples (index.ts describes the rail). */

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
claimIdPrefix('sob', 'svc.procurement.onboarding');
