import { z } from 'zod';
import { del, get, policyOf, post } from '../../platform/declare.ts';
import { meta } from '../../platform/meta.ts';
import { railRouter } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';
import { RiskDomain, RiskId } from '../risk-register/schemas.ts';
import { RiskNavigation, RiskPolicyGap, RisksByDomainView, RiskUnwatched, RiskWatch, TopRisksView, WatchRiskBody } from './schemas.ts';

/** The risk rail's resources and hand-declared routes, its router and the event types it emits. */

const includeClosed = z
  .enum(['true', 'false'])
  .optional()
  .meta({ description: '`true` counts closed risks too; by default the view covers the risks that are not closed.' });

// ---------------------------------------------------------------- router

const { read, write } = policyOf('risk');

export const riskRouter = railRouter('risk', {
  navigate: get('/navigate', { query: z.object({ includeClosed }) }, RiskNavigation, read).doc(
    'Risks grouped by business area',
    "The register's risks grouped by `area`, with counts per status and residual rating and the worst residual score of each area, worst area first. Computed from the register at request time. Needs `risk:read`.",
  ),
  policyGaps: get('/policy-gaps', { query: PaginationQuery.extend({ includeClosed }) }, listOf(RiskPolicyGap), read).doc(
    'Risks no published policy covers',
    'Risks that name no control, or none of whose controls is in the `controlIds` of a **published** policy of the tenant (draft, in-approval and retired policies do not count; they are listed as `unpublishedPolicyIds`). Newest risk first, `{ data, cursor }` (`limit` 1 to 200, default 50). Needs `risk:read`.',
  ),
  watchlist: {
    list: get('/watchlist', { query: PaginationQuery }, listOf(RiskWatch), meta({ ...read, source: { object: 'svc.risk.watch' } })).doc(
      'List the watched risks',
      "The tenant's watched risks with each risk as it is now, most recently added first, `{ data, cursor }`. Needs `risk:read`.",
    ),
    add: post('/watchlist', { body: WatchRiskBody }, { 201: RiskWatch }, write('risk_watch.created')).doc(
      'Watch a risk',
      "Adds a risk of the register to the tenant's watchlist (404 when not the tenant's risk; 409 when it is already watched). Returns 201 with the entry, id `rwl_<ULID>`. Needs `risk:write`; audited as `risk_watch.created` and emitted as the webhook event `risk_watch.created`.",
    ),
    remove: del('/watchlist/:riskId', { pathParams: z.object({ riskId: RiskId }) }, RiskUnwatched, write('risk_watch.removed')).doc(
      'Stop watching a risk',
      "Takes the risk off the watchlist; `removed: false` when it was not on it (nothing is recorded then). 404 when the risk is not the tenant's. Needs `risk:write`; audited as `risk_watch.removed` and emitted as the webhook event `risk_watch.removed`.",
    ),
  },
  topRisks: get(
    '/top-risks',
    {
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
    },
    TopRisksView,
    read,
  ).doc(
    'Top risks by residual score, treatable first',
    'The `limit` risks with the highest residual score; at the same score a treatable risk (not signed off, no implemented `accept` treatment) ranks before an accepted one, then the higher inherent score, then the newer risk. Closed risks are left out unless `includeClosed=true`. Needs `risk:read`.',
  ),
  byDomain: get('/by-domain', { query: z.object({ includeClosed }) }, RisksByDomainView, read).doc(
    'Risk counts and average residual per domain',
    'For every domain of the fixed list: how many risks, their mean residual and inherent scores, the highest residual and the counts per residual rating. Closed risks are left out unless `includeClosed=true`. Needs `risk:read`.',
  ),
});

/** Event types the risk rail emits. */
export const riskEvents = [
  eventType('risk_watch.created', "A risk was added to the tenant's watchlist.", RiskWatch),
  eventType('risk_watch.removed', "A risk was taken off the tenant's watchlist.", RiskUnwatched),
];
