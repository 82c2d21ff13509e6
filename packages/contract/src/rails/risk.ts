import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { meta } from '../meta.ts';
import { claimIdPrefix, railRouter } from '../resource.ts';
import { EXAMPLE_AT, EXAMPLE_KEY, exampleId, objectField } from '../shared/records.ts';
import { eventType } from '../webhook-events.ts';
import { RiskDomain, RiskId, RiskRating, RiskStatus } from './risk-register.ts';

/**
 * The risk rail: computed views over the risk register (navigator by area, policy gaps, top
 * risks, counts by domain) and the tenant's watchlist. Open to starter tenants, who read the
 * views; recording risks is the risk_register rail's (growth).
 */

/** The record the `object` field descriptions of this rail name as their example. */
const OBJECT_EXAMPLE = 'svc.risk.watch';
const EXAMPLE_RISK = exampleId('rsk');
const EXAMPLE_WATCH = exampleId('rwl');
/** The risk of the examples as the views show it (the title, domain, area and status they all give). */
const EXAMPLE_RISK_NAMED = { title: 'Biased credit-scoring model', domain: 'ai', area: 'Lending', status: 'open' } as const;
/** The example risk in the rating bands: its residual score of 20 is critical. */
const EXAMPLE_BY_RATING = { low: 0, medium: 0, high: 0, critical: 1 };

const RiskTitle = z.string().meta({ description: 'Title of the risk.' });
const RiskArea = z.string().nullable().meta({ description: 'Business area of the risk.' });
/** A risk score, likelihood x impact: 1 to 25. */
const Score = (description: string) => z.int().min(1).max(25).meta({ description });
const computedAt = Timestamp.meta({ description: 'When the view was computed (ISO 8601 UTC).' });
const includeClosed = z
  .enum(['true', 'false'])
  .optional()
  .meta({ description: '`true` counts closed risks too; by default the view covers the risks that are not closed.' });

const RatingCounts = z
  .object({
    low: z.int().min(0).meta({ description: 'Risks rated low (residual 1-4).' }),
    medium: z.int().min(0).meta({ description: 'Risks rated medium (residual 5-9).' }),
    high: z.int().min(0).meta({ description: 'Risks rated high (residual 10-16).' }),
    critical: z.int().min(0).meta({ description: 'Risks rated critical (residual 17-25).' }),
  })
  .meta({ description: 'Risks per residual rating band.' });

// ---------------------------------------------------------------- navigate

export const RiskNavigation = z
  .object({
    object: objectField('svc.risk.navigation', OBJECT_EXAMPLE),
    total: z.int().min(0).meta({ description: 'Risks covered by the view.' }),
    areas: z
      .array(
        z.object({
          area: z.string().nullable().meta({ description: 'Business area; null gathers the risks recorded without one.' }),
          count: z.int().min(1).meta({ description: 'Risks of the area.' }),
          byStatus: z
            .object({
              open: z.int().min(0).meta({ description: 'Open risks.' }),
              treated: z.int().min(0).meta({ description: 'Treated risks.' }),
              accepted: z.int().min(0).meta({ description: 'Accepted risks.' }),
              closed: z.int().min(0).meta({ description: 'Closed risks.' }),
            })
            .meta({ description: 'Risks of the area per status.' }),
          byRating: RatingCounts,
          worstResidualScore: Score('Highest residual score of the area.'),
          worstResidualRating: RiskRating,
          worstRiskIds: z.array(z.string()).meta({ description: 'The risks with that score, newest first.' }),
        }),
      )
      .meta({ description: 'One group per area, worst residual first, then by area name (the group without an area last).' }),
    computedAt,
  })
  .meta({
    id: 'RiskNavigation',
    examples: [
      {
        object: 'svc.risk.navigation',
        total: 1,
        areas: [
          {
            area: 'Lending',
            count: 1,
            byStatus: { open: 1, treated: 0, accepted: 0, closed: 0 },
            byRating: EXAMPLE_BY_RATING,
            worstResidualScore: 20,
            worstResidualRating: 'critical',
            worstRiskIds: [EXAMPLE_RISK],
          },
        ],
        computedAt: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- policy gaps

export const RiskPolicyGap = z
  .object({
    object: objectField('svc.risk.policy_gap', OBJECT_EXAMPLE),
    riskId: RiskId,
    title: RiskTitle,
    domain: RiskDomain,
    area: RiskArea,
    status: RiskStatus,
    residualScore: Score('Residual score of the risk (likelihood x impact).'),
    residualRating: RiskRating,
    reason: z.enum(['no_controls', 'no_published_policy']).meta({
      description:
        '`no_controls`: the risk names no control; `no_published_policy`: none of its controls is in the `controlIds` of a published policy.',
    }),
    controlIds: z.array(z.string()).meta({ description: "The risk's controls, none of them covered by a published policy." }),
    unpublishedPolicyIds: z
      .array(z.string())
      .meta({ description: 'Policies that name one of these controls but are not published (draft, in approval, retired).' }),
  })
  .meta({
    id: 'RiskPolicyGap',
    examples: [
      {
        object: 'svc.risk.policy_gap',
        riskId: EXAMPLE_RISK,
        ...EXAMPLE_RISK_NAMED,
        residualScore: 20,
        residualRating: 'critical',
        reason: 'no_published_policy',
        controlIds: ['AIA-RMS-01'],
        unpublishedPolicyIds: [exampleId('pol')],
      },
    ],
  });

// ---------------------------------------------------------------- watchlist

const RiskSummary = z
  .object({
    title: RiskTitle,
    domain: RiskDomain,
    area: RiskArea,
    status: RiskStatus,
    inherentScore: Score('Inherent score (likelihood x impact).'),
    residualScore: Score('Residual score now (likelihood x impact).'),
    residualRating: RiskRating,
  })
  .meta({ description: 'The risk as it is now.' });

export const RiskWatch = z
  .object({
    object: objectField('svc.risk.watch', OBJECT_EXAMPLE),
    id: prefixedId('rwl', EXAMPLE_WATCH),
    riskId: RiskId,
    note: z.string().nullable().meta({ description: 'Why the risk is watched; null when not given.' }),
    risk: RiskSummary,
    createdBy: z.string().meta({ description: 'Id of the API key whose request added the risk to the watchlist.' }),
    createdAt: Timestamp.meta({ description: 'When the risk was added to the watchlist.' }),
  })
  .meta({
    id: 'RiskWatch',
    examples: [
      {
        object: 'svc.risk.watch',
        id: EXAMPLE_WATCH,
        riskId: EXAMPLE_RISK,
        note: 'Board asked for monthly updates.',
        risk: {
          ...EXAMPLE_RISK_NAMED,
          inherentScore: 20,
          residualScore: 20,
          residualRating: 'critical',
        },
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const WatchRiskBody = z
  .strictObject({
    riskId: RiskId.meta({ description: 'The risk to watch; 404 when it is not a risk of the tenant.', examples: [EXAMPLE_RISK] }),
    note: z.string().min(1).max(500).optional().meta({ description: 'Why the risk is watched, up to 500 characters.' }),
  })
  .meta({ id: 'WatchRiskRequest', examples: [{ riskId: EXAMPLE_RISK, note: 'Board asked for monthly updates.' }] });

export const RiskUnwatched = z
  .object({
    object: objectField('svc.risk.watch_removal', OBJECT_EXAMPLE),
    riskId: RiskId,
    removed: z.boolean().meta({ description: 'True when the risk was on the watchlist and was taken off; false when it was not on it.' }),
    watchId: z.string().nullable().meta({ description: 'The watchlist entry removed; null when there was none.' }),
  })
  .meta({
    id: 'RiskUnwatched',
    examples: [{ object: 'svc.risk.watch_removal', riskId: EXAMPLE_RISK, removed: true, watchId: EXAMPLE_WATCH }],
  });

// ---------------------------------------------------------------- top risks, by domain

export const TopRisksView = z
  .object({
    object: objectField('svc.risk.top_risks', OBJECT_EXAMPLE),
    limit: z.int().min(1).max(100).meta({ description: 'How many risks were asked for.' }),
    risks: z
      .array(
        z.object({
          rank: z.int().min(1).meta({ description: 'Position, 1 for the highest.' }),
          riskId: RiskId,
          title: RiskTitle,
          domain: RiskDomain,
          area: z.string().nullable().meta({ description: 'Business area.' }),
          status: RiskStatus,
          ownerId: z.string().nullable().meta({ description: 'Accountable owner.' }),
          inherentScore: Score('Inherent score.'),
          residualScore: Score('Residual score (the ranking key).'),
          residualRating: RiskRating,
          treatable: z.boolean().meta({
            description:
              'True when the risk is not accepted (no sign-off, no implemented `accept` treatment): treating it can still lower the residual.',
          }),
          watched: z.boolean().meta({ description: "Whether the risk is on the tenant's watchlist." }),
        }),
      )
      .meta({
        description:
          'Highest residual score first; at the same score a treatable risk ranks before an accepted one, then the higher inherent score, then the newer risk.',
      }),
    computedAt,
  })
  .meta({
    id: 'TopRisksView',
    examples: [
      {
        object: 'svc.risk.top_risks',
        limit: 10,
        risks: [
          {
            rank: 1,
            riskId: EXAMPLE_RISK,
            ...EXAMPLE_RISK_NAMED,
            ownerId: null,
            inherentScore: 20,
            residualScore: 20,
            residualRating: 'critical',
            treatable: true,
            watched: false,
          },
        ],
        computedAt: EXAMPLE_AT,
      },
    ],
  });

export const RisksByDomainView = z
  .object({
    object: objectField('svc.risk.by_domain', OBJECT_EXAMPLE),
    total: z.int().min(0).meta({ description: 'Risks covered by the view.' }),
    domains: z
      .array(
        z.object({
          domain: RiskDomain,
          count: z.int().min(0).meta({ description: 'Risks of the domain.' }),
          averageResidualScore: z
            .number()
            .min(1)
            .max(25)
            .nullable()
            .meta({ description: 'Mean residual score, rounded to two decimals; null when the domain has no risk.' }),
          averageInherentScore: z
            .number()
            .min(1)
            .max(25)
            .nullable()
            .meta({ description: 'Mean inherent score, rounded to two decimals; null when the domain has no risk.' }),
          maxResidualScore: z.int().min(1).max(25).nullable().meta({ description: 'Highest residual score; null when none.' }),
          byRating: RatingCounts,
        }),
      )
      .meta({ description: 'Every domain of the fixed list, in its order, with zero counts where there is no risk.' }),
    computedAt,
  })
  .meta({
    id: 'RisksByDomainView',
    examples: [
      {
        object: 'svc.risk.by_domain',
        total: 1,
        domains: [
          {
            domain: 'ai',
            count: 1,
            averageResidualScore: 20,
            averageInherentScore: 20,
            maxResidualScore: 20,
            byRating: EXAMPLE_BY_RATING,
          },
        ],
        computedAt: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- router

claimIdPrefix('rwl', 'svc.risk.watch');

const read = meta({ auth: 'tenant', rail: 'risk', permission: 'risk:read', mutating: false });
/** The policy of a watchlist change, audited as `audit`. */
const write = <const A extends string>(audit: A) => meta({ auth: 'tenant', rail: 'risk', permission: 'risk:write', mutating: true, audit });

export const riskRouter = railRouter('risk', {
  navigate: {
    method: 'GET',
    path: '/navigate',
    query: z.object({ includeClosed }),
    responses: { 200: RiskNavigation },
    summary: 'Risks grouped by business area',
    description:
      "The register's risks grouped by `area`, with counts per status and residual rating and the worst residual score of each area, worst area first. Computed from the register at request time. Needs `risk:read`.",
    metadata: read,
  },
  policyGaps: {
    method: 'GET',
    path: '/policy-gaps',
    query: PaginationQuery.extend({ includeClosed }),
    responses: { 200: listOf(RiskPolicyGap) },
    summary: 'Risks no published policy covers',
    description:
      'Risks that name no control, or none of whose controls is in the `controlIds` of a **published** policy of the tenant (draft, in-approval and retired policies do not count; they are listed as `unpublishedPolicyIds`). Newest risk first, `{ data, cursor }` (`limit` 1 to 200, default 50). Needs `risk:read`.',
    metadata: read,
  },
  watchlist: {
    list: {
      method: 'GET',
      path: '/watchlist',
      query: PaginationQuery,
      responses: { 200: listOf(RiskWatch) },
      summary: 'List the watched risks',
      description:
        "The tenant's watched risks with each risk as it is now, most recently added first, `{ data, cursor }`. Needs `risk:read`.",
      metadata: meta({ ...read, source: { object: 'svc.risk.watch' } }),
    },
    add: {
      method: 'POST',
      path: '/watchlist',
      body: WatchRiskBody,
      responses: { 201: RiskWatch },
      summary: 'Watch a risk',
      description:
        "Adds a risk of the register to the tenant's watchlist (404 when not the tenant's risk; 409 when it is already watched). Returns 201 with the entry, id `rwl_<ULID>`. Needs `risk:write`; audited as `risk_watch.created` and emitted as the webhook event `risk_watch.created`.",
      metadata: write('risk_watch.created'),
    },
    remove: {
      method: 'DELETE',
      path: '/watchlist/:riskId',
      pathParams: z.object({ riskId: RiskId }),
      responses: { 200: RiskUnwatched },
      summary: 'Stop watching a risk',
      description:
        "Takes the risk off the watchlist; `removed: false` when it was not on it (nothing is recorded then). 404 when the risk is not the tenant's. Needs `risk:write`; audited as `risk_watch.removed` and emitted as the webhook event `risk_watch.removed`.",
      metadata: write('risk_watch.removed'),
    },
  },
  topRisks: {
    method: 'GET',
    path: '/top-risks',
    query: z.object({
      limit: z.coerce
        .number()
        .int()
        .min(1)
        .max(100)
        .default(10)
        .meta({ description: 'How many risks, 1 to 100; 10 when absent.', examples: [10] }),
      domain: RiskDomain.optional().meta({ description: 'Only risks of this domain.' }),
      includeClosed,
    }),
    responses: { 200: TopRisksView },
    summary: 'Top risks by residual score, treatable first',
    description:
      'The `limit` risks with the highest residual score; at the same score a treatable risk (not signed off, no implemented `accept` treatment) ranks before an accepted one, then the higher inherent score, then the newer risk. Closed risks are left out unless `includeClosed=true`. Needs `risk:read`.',
    metadata: read,
  },
  byDomain: {
    method: 'GET',
    path: '/by-domain',
    query: z.object({ includeClosed }),
    responses: { 200: RisksByDomainView },
    summary: 'Risk counts and average residual per domain',
    description:
      'For every domain of the fixed list: how many risks, their mean residual and inherent scores, the highest residual and the counts per residual rating. Closed risks are left out unless `includeClosed=true`. Needs `risk:read`.',
    metadata: read,
  },
});

/** Event types the risk rail emits. */
export const riskEvents = [
  eventType('risk_watch.created', "A risk was added to the tenant's watchlist.", RiskWatch),
  eventType('risk_watch.removed', "A risk was taken off the tenant's watchlist.", RiskUnwatched),
];
