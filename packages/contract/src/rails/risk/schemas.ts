import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { EXAMPLE_AT, EXAMPLE_KEY, exampleId, objectField } from '../../shared/records.ts';
import { RiskDomain, RiskId, RiskRating, RiskStatus } from '../risk-register/schemas.ts';

/** The risk rail's records, request bodies and their examples (index.ts describes the rail). */

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
