import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { meta } from '../../platform/meta.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';
import { SpecialistFirmId, SpecialistFrameworkRef, SpecialistJurisdiction } from '../specialists/schemas.ts';
import { EngagementStatus, FIRM_NAME, LISTING_STATUSES } from './fields.ts';
import {
  CreateMarketplaceEngagementBody,
  CreateMarketplaceListingBody,
  CreateMarketplaceReviewBody,
  EndMarketplaceEngagementBody,
  MarketplaceEngagement,
  MarketplaceListing,
  MarketplaceListingId,
  MarketplaceMatching,
  MarketplacePublishedListing,
  MarketplaceReview,
  MarketplaceSpecialist,
  OFFER_EXAMPLE,
} from './schemas.ts';

/** The marketplace rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- listings (the firm's own)

export const marketplaceListings = resource({
  rail: 'marketplace',
  path: 'listings',
  name: 'listing',
  label: { one: 'listing', many: 'listings' },
  idPrefix: 'mls',
  record: MarketplaceListing,
  statusField: 'status',
  filters: { status: z.enum(LISTING_STATUSES).optional(), firmId: SpecialistFirmId.optional() },
  setup: [
    {
      method: 'POST',
      path: '/v1/specialists/firms',
      body: { name: FIRM_NAME, description: 'EU AI Act and GDPR readiness for AI providers.', jurisdictions: ['EU', 'UK'] },
    },
  ],
  create: {
    body: CreateMarketplaceListingBody,
    summary: 'Create a listing',
    description:
      "Creates an offer of one of the tenant's firms, in `draft`. Only specialist firms offer: a tenant below the specialist tier gets 403 `forbidden`. `frameworks` must name dictionaries that exist (422). The list and get routes here are the firm's own listings in every state; every tenant reads published ones at `GET /v1/marketplace/listings/published`.",
    eventSummary: 'A firm created a marketplace listing.',
  },
  transitions: {
    publish: {
      from: ['draft', 'withdrawn'],
      to: 'published',
      summary: 'Publish a listing',
      description: 'Makes the listing visible to every tenant and open to engagements.',
    },
    withdraw: {
      from: ['draft', 'published'],
      to: 'withdrawn',
      summary: 'Withdraw a listing',
      description: 'Takes the listing off the marketplace (or discards a draft); running engagements go on.',
    },
  },
});

// ---------------------------------------------------------------- engagements (the client's)

/** A firm engaged by the tenant as its client: the grant the firm's posture reads rest on. */
export const marketplaceEngagements = resource({
  rail: 'marketplace',
  path: 'engagements',
  // Engagements are made through listings; the catalogue names no sub-resource of their own.
  subResource: 'listings',
  name: 'engagement',
  label: { one: 'engagement', many: 'engagements' },
  idPrefix: 'meg',
  record: MarketplaceEngagement,
  statusField: 'status',
  filters: { status: EngagementStatus.optional().meta({ description: 'Only engagements in this state.' }) },
  get: false,
  notes: { list: 'Engagements the calling tenant made as a client.' },
  // The firm is another tenant's: it registers, lists its offer and publishes it.
  setup: [
    {
      method: 'POST',
      path: '/v1/specialists/firms',
      body: { name: FIRM_NAME, description: 'EU AI Act and GDPR readiness for AI providers.', jurisdictions: ['EU', 'UK'] },
      as: 'firm',
      tenant: 'peer',
    },
    { method: 'POST', path: '/v1/marketplace/listings', body: { ...OFFER_EXAMPLE, firmId: '{{firm.id}}' }, as: 'listing', tenant: 'peer' },
    { method: 'POST', path: '/v1/marketplace/listings/{{listing.id}}/publish', body: {}, tenant: 'peer' },
  ],
  create: {
    body: CreateMarketplaceEngagementBody,
    action: 'marketplace_engagement.created',
    summary: 'Engage a firm from a listing',
    description:
      "Engages the listing's firm: from now on the firm reads this tenant's posture score and open-findings count in its `GET /v1/specialists/client-engagements`, and nothing else. The listing must be published and of another tenant's firm. One active engagement per firm: 409 `conflict` naming the running one, also for two sent at once.",
    eventSummary: 'A client engaged a firm; the firm reads its posture from now on.',
    fixture: { listingId: '{{listing.id}}' },
  },
  transitions: {
    end: {
      from: ['active'],
      to: 'ended',
      idField: 'engagementId',
      path: 'engagements/end',
      body: EndMarketplaceEngagementBody,
      action: 'marketplace_engagement.ended',
      summary: 'End an engagement',
      description: 'The firm loses access at once.',
      eventSummary: 'A client ended an engagement; the firm lost access.',
    },
    revoke: {
      from: ['active'],
      to: 'revoked',
      idField: 'engagementId',
      path: 'engagements/revoke',
      body: EndMarketplaceEngagementBody,
      action: 'marketplace_engagement.revoked',
      summary: "Revoke a firm's access",
      description: 'For a client who withdraws the grant before the work is done: the firm loses access at once.',
      eventSummary: "A client revoked a firm's access.",
    },
  },
});

// ---------------------------------------------------------------- router

const { read, write } = policyOf('marketplace');

export const marketplaceRouter = railRouter('marketplace', {
  specialists: get(
    '/specialists',
    {
      query: PaginationQuery.extend({
        expertise: SpecialistFrameworkRef.optional().meta({ description: 'Only consultants who know this framework dictionary.' }),
        jurisdiction: SpecialistJurisdiction.optional().meta({
          description: 'Only consultants who work in this jurisdiction (case-insensitive).',
        }),
      }),
    },
    listOf(MarketplaceSpecialist),
    read,
  ).doc(
    'Find listed specialists',
    'Listed consultants of every firm on the platform, public fields only (no tenant ids), newest first, with their firm, its average review rating and their unexpired certifications; filtered by `expertise` and `jurisdiction`. Needs `marketplace:read`.',
  ),
  // Declared before the listing routes: `/listings/published` is not an id.
  publishedListings: get(
    '/listings/published',
    {
      query: PaginationQuery.extend({
        framework: SpecialistFrameworkRef.optional().meta({ description: 'Only listings that cover this framework dictionary.' }),
        firmId: SpecialistFirmId.optional().meta({ description: 'Only listings of this firm.' }),
      }),
    },
    listOf(MarketplacePublishedListing),
    read,
  ).doc(
    'Browse published listings',
    'Published listings of every firm on the platform, newest first, with the average rating of their reviews and of their firm; public fields only. Needs `marketplace:read`.',
  ),
  listings: marketplaceListings.routes,
  engagements: {
    list: marketplaceEngagements.routes.list,
    create: marketplaceEngagements.routes.create,
    end: marketplaceEngagements.routes.end,
    revoke: marketplaceEngagements.routes.revoke,
  },
  reviews: {
    list: get(
      '/reviews',
      {
        query: PaginationQuery.extend({
          firmId: SpecialistFirmId.optional().meta({ description: 'Only reviews of this firm.' }),
          listingId: MarketplaceListingId.optional().meta({ description: 'Only reviews of engagements made through this listing.' }),
        }),
      },
      listOf(MarketplaceReview),
      meta({ ...read, source: { object: 'svc.marketplace.review' } }),
    ).doc(
      'Read reviews',
      'Reviews of engagements on the whole platform, newest first, without the reviewing tenant; filter by firm or listing. Needs `marketplace:read`.',
    ),
    create: post('/reviews', { body: CreateMarketplaceReviewBody }, { 201: MarketplaceReview }, write('marketplace_review.created')).doc(
      'Review an engagement',
      "Reviews an engagement of the calling tenant (the client), in any state: one review per engagement (409 `conflict` for a second), `rating` 1 to 5 (422 otherwise). Another tenant's engagement is 404. Audited (`marketplace_review.created`). Needs `marketplace:write`.",
    ),
  },
  matching: get(
    '/matching',
    {
      query: PaginationQuery.pick({ cursor: true }).extend({
        limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'Matches per page, 1 to 100 (default 20).' }),
      }),
    },
    MarketplaceMatching,
    read,
  ).doc(
    'Rank listings by fit',
    "Ranks the published listings of other tenants' firms by fit to the caller: `frameworkFit` (share of its activated frameworks a listing covers) and `gapFit` (share of its gaps, open self-audit findings and activated controls without unexpired evidence, that fall in frameworks the listing covers), score `50 × frameworkFit + 50 × gapFit`, with the parts shown. Computed at request time; stores nothing. Needs `marketplace:read`.",
  ),
});

/** Event types the marketplace rail emits. */
export const marketplaceEvents: ReturnType<typeof eventType>[] = [
  ...marketplaceListings.events,
  ...marketplaceEngagements.events,
  eventType('marketplace_review.created', 'A client reviewed an engagement.', MarketplaceReview),
];
