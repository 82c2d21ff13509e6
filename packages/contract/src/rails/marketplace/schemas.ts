import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { CREATED_AT_DESCRIPTION, EXAMPLE_AT, exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import { SpecialistFirmId, SpecialistFrameworkRef } from '../specialists/schemas.ts';
import { EngagementStatus, FIRM_NAME, LISTING_STATUSES } from './fields.ts';

/** The marketplace rail's records, request bodies and their examples (index.ts describes the rail). */

/** The `object` field of a marketplace record; every description names `svc.marketplace.listing` as its example. */
const objectOf = <const T extends string>(name: T) => objectField(name, 'svc.marketplace.listing');

const EXAMPLE_FIRM = exampleId('frm');
const EXAMPLE_LISTING = exampleId('mls');
const EXAMPLE_ENGAGEMENT = exampleId('meg');
const EXAMPLE_REVIEW = exampleId('mrv');
const EXAMPLE_SPECIALIST = exampleId('csl');

export const MarketplaceListingId = prefixedId('mls', EXAMPLE_LISTING);
export const MarketplaceEngagementId = prefixedId('meg', EXAMPLE_ENGAGEMENT);

claimIdPrefix('meg', 'svc.marketplace.engagement');
claimIdPrefix('mrv', 'svc.marketplace.review');

const Rating = z
  .number()
  .min(1)
  .max(5)
  .nullable()
  .meta({ description: 'Average rating of the reviews, 1 to 5, rounded to two decimals; null without reviews.' });
const ReviewCount = z.int().min(0).meta({ description: 'Number of reviews the average is taken over.' });

/** `title` and `description` of a listing, as the firm's records and the published ones show them. */
const offerText = () => ({
  title: z.string().meta({ description: 'Title of the offer.' }),
  description: z.string().nullable().meta({ description: 'What the offer includes; null when not given.' }),
});

/** `priceMinEur` and `priceMaxEur` of a listing record. */
const priceBand = () => ({
  priceMinEur: z.int().min(0).meta({ description: 'Lower end of the price band, whole euros.' }),
  priceMaxEur: z.int().min(0).meta({ description: 'Upper end of the price band, whole euros.' }),
});

/** The offer of the example listing, as its firm creates it. */
export const OFFER_EXAMPLE = {
  title: 'EU AI Act readiness sprint',
  description: 'Six-week gap assessment and remediation plan for high-risk AI systems.',
  services: ['gap assessment', 'remediation plan'],
  frameworks: ['eu-ai-act'],
  priceMinEur: 15_000,
  priceMaxEur: 40_000,
};

const FIRM_SUMMARY_EXAMPLE = { id: EXAMPLE_FIRM, name: FIRM_NAME, averageRating: 4.5, reviewCount: 2 };

// ---------------------------------------------------------------- listings (the firm's own)

export const MarketplaceListing = z
  .object({
    object: objectOf('svc.marketplace.listing'),
    id: MarketplaceListingId,
    firmId: SpecialistFirmId.meta({ description: 'Firm of the tenant that offers it.' }),
    ...offerText(),
    services: z.array(z.string()).meta({ description: 'Services offered (`gap assessment`, `DPIA`).' }),
    frameworks: z.array(z.string()).meta({ description: 'Framework dictionary ids the offer covers; matching ranks by them.' }),
    ...priceBand(),
    revenueShareBps: z
      .int()
      .min(0)
      .max(10_000)
      .meta({ description: "The firm's share of the fees of engagements made through the listing, in basis points (8000 = 80 %)." }),
    status: z
      .enum(LISTING_STATUSES)
      .meta({ description: '`draft` (seen by the firm only), `published` (visible to every tenant, engageable) or `withdrawn`.' }),
    ...stamps(),
  })
  .meta({
    id: 'MarketplaceListing',
    examples: [
      {
        object: 'svc.marketplace.listing',
        id: EXAMPLE_LISTING,
        firmId: EXAMPLE_FIRM,
        ...OFFER_EXAMPLE,
        revenueShareBps: 8000,
        status: 'draft',
        ...exampleStamps(),
      },
    ],
  });

export const CreateMarketplaceListingBody = z
  .strictObject({
    firmId: SpecialistFirmId.optional().meta({
      description: "Firm of the tenant that offers it; absent: the tenant's first registered firm (422 when it has none).",
    }),
    title: z.string().min(1).max(200).meta({ description: 'Title of the offer.' }),
    description: z.string().min(1).max(4000).optional().meta({ description: 'What the offer includes, up to 4,000 characters.' }),
    services: z.array(z.string().min(1).max(100)).min(1).max(30).meta({ description: 'Services offered, 1 to 30.' }),
    frameworks: z
      .array(SpecialistFrameworkRef)
      .min(1)
      .max(30)
      .meta({ description: 'Framework dictionary ids the offer covers, 1 to 30; each must exist.' }),
    priceMinEur: z.int().min(0).max(100_000_000).meta({ description: 'Lower end of the price band, whole euros.' }),
    priceMaxEur: z.int().min(0).max(100_000_000).meta({ description: 'Upper end of the price band, whole euros, at least `priceMinEur`.' }),
    revenueShareBps: z
      .int()
      .min(0)
      .max(10_000)
      .default(8000)
      .meta({ description: "The firm's share of engagement fees in basis points; 8000 (80 %) when absent." }),
  })
  .refine((b) => b.priceMaxEur >= b.priceMinEur, { path: ['priceMaxEur'], message: 'priceMaxEur must be at least priceMinEur' })
  .meta({
    id: 'CreateMarketplaceListingRequest',
    examples: [OFFER_EXAMPLE],
  });

const FirmSummary = z
  .object({
    id: SpecialistFirmId,
    name: z.string().meta({ description: 'Name of the firm.' }),
    averageRating: Rating,
    reviewCount: ReviewCount,
  })
  .meta({ description: "The firm, with the average of its clients' reviews over all its listings." });

export const MarketplacePublishedListing = z
  .object({
    object: objectOf('svc.marketplace.published_listing'),
    id: MarketplaceListingId,
    firm: FirmSummary,
    ...offerText(),
    services: z.array(z.string()).meta({ description: 'Services offered.' }),
    frameworks: z.array(z.string()).meta({ description: 'Framework dictionary ids the offer covers.' }),
    ...priceBand(),
    averageRating: Rating,
    reviewCount: ReviewCount,
    publishedAt: Timestamp.meta({ description: 'When the listing was last published (ISO 8601 UTC).' }),
  })
  .meta({
    id: 'MarketplacePublishedListing',
    examples: [
      {
        object: 'svc.marketplace.published_listing',
        id: EXAMPLE_LISTING,
        firm: FIRM_SUMMARY_EXAMPLE,
        ...OFFER_EXAMPLE,
        averageRating: 5,
        reviewCount: 1,
        publishedAt: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- specialists (listed consultants)

export const MarketplaceSpecialist = z
  .object({
    object: objectOf('svc.marketplace.specialist'),
    id: prefixedId('csl', EXAMPLE_SPECIALIST),
    name: z.string().meta({ description: 'Full name of the consultant.' }),
    headline: z.string().meta({ description: 'One-line profile.' }),
    expertise: z.array(z.string()).meta({ description: 'Framework dictionary ids the consultant knows.' }),
    jurisdictions: z.array(z.string()).meta({ description: 'Jurisdiction codes the consultant works in.' }),
    firm: FirmSummary,
    certifications: z
      .array(
        z.object({
          name: z.string().meta({ description: 'Name of the certification.' }),
          issuer: z.string().meta({ description: 'Issuing body.' }),
          validUntil: Timestamp.nullable().meta({ description: 'End of validity; null when it does not expire.' }),
        }),
      )
      .meta({ description: 'Unexpired certifications of the consultant, by name.' }),
  })
  .meta({
    id: 'MarketplaceSpecialist',
    examples: [
      {
        object: 'svc.marketplace.specialist',
        id: EXAMPLE_SPECIALIST,
        name: 'Amara Okafor',
        headline: 'Former notified-body assessor; high-risk AI conformity.',
        expertise: ['eu-ai-act', 'gdpr'],
        jurisdictions: ['EU'],
        firm: FIRM_SUMMARY_EXAMPLE,
        certifications: [{ name: 'CIPP/E', issuer: 'IAPP', validUntil: '2027-03-01T00:00:00.000Z' }],
      },
    ],
  });

// ---------------------------------------------------------------- engagements

export const MarketplaceEngagement = z
  .object({
    object: objectOf('svc.marketplace.engagement'),
    id: MarketplaceEngagementId,
    listingId: MarketplaceListingId.meta({ description: 'Listing the firm was engaged through.' }),
    firmId: SpecialistFirmId.meta({ description: 'The engaged firm.' }),
    firmName: z.string().meta({ description: 'Name of the engaged firm.' }),
    shareRateBps: z
      .int()
      .min(0)
      .max(10_000)
      .meta({ description: "The firm's share of the engagement's fees in basis points, from the listing." }),
    status: EngagementStatus,
    endedAt: Timestamp.nullable().meta({ description: 'When the engagement was ended or revoked; null while active.' }),
    ...stamps(),
  })
  .meta({
    id: 'MarketplaceEngagement',
    examples: [
      {
        object: 'svc.marketplace.engagement',
        id: EXAMPLE_ENGAGEMENT,
        listingId: EXAMPLE_LISTING,
        firmId: EXAMPLE_FIRM,
        firmName: FIRM_NAME,
        shareRateBps: 8000,
        status: 'active',
        endedAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateMarketplaceEngagementBody = z
  .strictObject({
    listingId: MarketplaceListingId.meta({
      description: "A published listing of another tenant's firm; unknown, unpublished or withdrawn: 404; the caller's own firm: 422.",
    }),
  })
  .meta({ id: 'CreateMarketplaceEngagementRequest', examples: [{ listingId: EXAMPLE_LISTING }] });

export const EndMarketplaceEngagementBody = z
  .strictObject({
    engagementId: MarketplaceEngagementId.meta({ description: 'An engagement of the calling (client) tenant; another tenant’s is 404.' }),
    reason: z.string().min(1).max(1000).optional().meta({ description: 'Why; kept in the audit event.' }),
  })
  .meta({ id: 'EndMarketplaceEngagementRequest', examples: [{ engagementId: EXAMPLE_ENGAGEMENT, reason: 'Project delivered.' }] });

// ---------------------------------------------------------------- reviews

const REVIEW_COMMENT = 'Clear gap report, on time.';

export const MarketplaceReview = z
  .object({
    object: objectOf('svc.marketplace.review'),
    id: prefixedId('mrv', EXAMPLE_REVIEW),
    engagementId: MarketplaceEngagementId.meta({ description: 'The reviewed engagement (one review each).' }),
    listingId: MarketplaceListingId.meta({ description: 'Listing of the engagement.' }),
    firmId: SpecialistFirmId.meta({ description: 'Firm of the engagement.' }),
    rating: z.int().min(1).max(5).meta({ description: 'Rating, 1 (poor) to 5 (excellent).' }),
    comment: z.string().nullable().meta({ description: 'What the client wrote; null when nothing.' }),
    createdAt: Timestamp.meta({ description: CREATED_AT_DESCRIPTION }),
  })
  .meta({
    id: 'MarketplaceReview',
    examples: [
      {
        object: 'svc.marketplace.review',
        id: EXAMPLE_REVIEW,
        engagementId: EXAMPLE_ENGAGEMENT,
        listingId: EXAMPLE_LISTING,
        firmId: EXAMPLE_FIRM,
        rating: 5,
        comment: REVIEW_COMMENT,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateMarketplaceReviewBody = z
  .strictObject({
    engagementId: MarketplaceEngagementId.meta({
      description: 'An engagement of the calling (client) tenant; another tenant’s is 404; a second review of it is 409.',
    }),
    rating: z.int().min(1).max(5).meta({ description: 'Rating, an integer 1 to 5; anything else is 422.' }),
    comment: z.string().min(1).max(2000).optional().meta({ description: 'What the client has to say, up to 2,000 characters.' }),
  })
  .meta({
    id: 'CreateMarketplaceReviewRequest',
    examples: [{ engagementId: EXAMPLE_ENGAGEMENT, rating: 5, comment: REVIEW_COMMENT }],
  });

// ---------------------------------------------------------------- matching

const MATCH_EXAMPLE = {
  object: 'svc.marketplace.match',
  rank: 1,
  listing: {
    object: 'svc.marketplace.published_listing',
    id: EXAMPLE_LISTING,
    firm: { id: EXAMPLE_FIRM, name: FIRM_NAME, averageRating: null, reviewCount: 0 },
    title: 'EU AI Act readiness sprint',
    description: null,
    services: ['gap assessment'],
    frameworks: ['eu-ai-act'],
    priceMinEur: 15_000,
    priceMaxEur: 40_000,
    averageRating: null,
    reviewCount: 0,
    publishedAt: EXAMPLE_AT,
  },
  score: 100,
  parts: {
    frameworksMatched: ['eu-ai-act'],
    frameworkFit: 1,
    openFindingsCovered: 1,
    unevidencedControlsCovered: 9,
    gaps: 10,
    gapFit: 1,
  },
};

export const MarketplaceMatch = z
  .object({
    object: objectOf('svc.marketplace.match'),
    rank: z.int().min(1).meta({ description: 'Position in the ranking, 1 first.' }),
    listing: MarketplacePublishedListing,
    score: z.number().min(0).max(100).meta({
      description:
        '`50 × frameworkFit + 50 × gapFit`, 0 to 100, rounded to two decimals: the sort key (ties: rating, then newest listing).',
    }),
    parts: z
      .object({
        frameworksMatched: z.array(z.string()).meta({ description: "The caller's activated frameworks the listing covers." }),
        frameworkFit: z
          .number()
          .min(0)
          .max(1)
          .meta({ description: 'Share of the caller’s activated frameworks the listing covers (0 when none is activated).' }),
        openFindingsCovered: z
          .int()
          .min(0)
          .meta({ description: 'Open self-audit findings of the caller whose control belongs to a framework the listing covers.' }),
        unevidencedControlsCovered: z.int().min(0).meta({
          description: 'Controls of the caller’s activated frameworks without unexpired evidence, in frameworks the listing covers.',
        }),
        gaps: z.int().min(0).meta({ description: 'All gaps of the caller: open findings plus unevidenced activated controls.' }),
        gapFit: z
          .number()
          .min(0)
          .max(1)
          .meta({ description: '`(openFindingsCovered + unevidencedControlsCovered) / gaps` (0 without gaps).' }),
      })
      .meta({ description: 'The parts the score is computed from.' }),
  })
  .meta({ id: 'MarketplaceMatch', examples: [MATCH_EXAMPLE] });

export const MarketplaceMatching = z
  .object({
    object: objectOf('svc.marketplace.matching'),
    basis: z
      .object({
        activatedFrameworks: z.array(z.string()).meta({ description: 'Framework ids the caller has activated.' }),
        openFindings: z.int().min(0).meta({ description: 'Open self-audit findings of the caller.' }),
        unevidencedControls: z.int().min(0).meta({ description: 'Activated controls without unexpired evidence.' }),
      })
      .meta({ description: "The caller's data the ranking was computed from." }),
    data: z.array(MarketplaceMatch).meta({ description: 'Published listings of other tenants’ firms, best fit first.' }),
    cursor: z.string().nullable().meta({ description: 'Cursor of the next page of the ranking; null on the last page.' }),
    computedAt: Timestamp.meta({ description: 'When the ranking was computed (ISO 8601 UTC).' }),
  })
  .meta({
    id: 'MarketplaceMatching',
    examples: [
      {
        object: 'svc.marketplace.matching',
        basis: { activatedFrameworks: ['eu-ai-act'], openFindings: 1, unevidencedControls: 9 },
        data: [MATCH_EXAMPLE],
        cursor: null,
        computedAt: EXAMPLE_AT,
      },
    ],
  });
