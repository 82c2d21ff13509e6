import { z } from 'zod';
import { get, policyOf, post, stateful } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { Timestamp } from '../../shared/common.ts';
import { Line, POLICY_PERIOD_EXAMPLE, PolicyId, QuoteId } from './fields.ts';
import {
  AcceptInsuranceOfferBody,
  CreateInsuranceClaimBody,
  CreateInsurancePolicyBody,
  CreateInsuranceQuoteBody,
  INSURANCE_CLAIM_STATUSES,
  InsuranceClaim,
  InsuranceCoverage,
  InsurancePolicy,
  InsurancePolicyStanding,
  InsuranceQuote,
  InsuranceQuoteComparison,
  RecordInsuranceOfferBody,
} from './schemas.ts';

/** The insurance rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- policies

export const insurancePolicies = resource({
  rail: 'insurance',
  path: 'policies',
  name: 'policy',
  label: { one: 'policy', many: 'policies' },
  idPrefix: 'inp',
  record: InsurancePolicy,
  statusField: 'status',
  filters: {
    status: z.enum(['active', 'cancelled']).optional().meta({ description: 'Only policies in this status.' }),
    line: Line.optional().meta({ description: 'Only policies of this line.' }),
  },
  create: {
    body: CreateInsurancePolicyBody,
    action: 'insurance_policy.created',
    summary: 'Record an insurance policy',
    description:
      'Records a policy with its limit, retention, period and covered perils; its standing (`state`) is computed from the period and cancellation.',
    eventSummary: 'An insurance policy was recorded.',
  },
  transitions: {
    cancel: {
      from: ['active'],
      to: 'cancelled',
      action: 'insurance_policy.cancelled',
      summary: 'Cancel a policy',
      description: 'Cancels the policy from now: it covers nothing from `cancelledAt` on, and losses from then take no claim.',
    },
  },
});

// ---------------------------------------------------------------- claims

const policySetup = {
  method: 'POST' as const,
  path: '/v1/insurance/policies',
  body: {
    insurer: 'Example Mutual',
    line: 'cyber',
    currency: 'EUR',
    limit: 5_000_000,
    retention: 100_000,
    ...POLICY_PERIOD_EXAMPLE,
    perils: ['data_breach', 'ransomware'],
  },
  as: 'policy',
};

export const insuranceClaims = resource({
  rail: 'insurance',
  path: 'claims',
  name: 'claim',
  label: { one: 'claim', many: 'claims' },
  idPrefix: 'icl',
  record: InsuranceClaim,
  statusField: 'status',
  filters: {
    status: z.enum(INSURANCE_CLAIM_STATUSES).optional().meta({ description: 'Only claims in this status.' }),
    policyId: PolicyId.optional().meta({ description: 'Only claims under this policy.' }),
  },
  setup: [policySetup],
  create: {
    body: CreateInsuranceClaimBody,
    fixture: { policyId: '{{policy.id}}', title: 'Loss {{unique}}', lossDate: '2026-03-10T00:00:00.000Z', amountClaimed: 350_000 },
    action: 'insurance_claim.created',
    summary: 'Draft a claim',
    description:
      'Drafts a claim under a policy in force at the loss date (422 naming `lossDate` otherwise: before the period, after its end or after a cancellation) and computes `payable` from the policy’s retention and limit.',
    eventSummary: 'An insurance claim was drafted.',
  },
  transitions: {
    submit: { from: ['draft'], to: 'submitted', action: 'insurance_claim.submitted', summary: 'Submit a claim to the insurer' },
    review: { from: ['submitted'], to: 'under_review', action: 'insurance_claim.reviewed', summary: 'Put a claim under review' },
    approve: {
      from: ['under_review'],
      to: 'approved',
      action: 'insurance_claim.approved',
      summary: 'Approve a claim',
      description:
        'Sets `approvedAmount`: the payable amount, capped by what the policy’s aggregate limit has left after its other approved and paid claims.',
    },
    deny: { from: ['under_review'], to: 'denied', action: 'insurance_claim.denied', grant: 'approve', summary: 'Deny a claim' },
    pay: {
      from: ['approved'],
      to: 'paid',
      action: 'insurance_claim.paid',
      summary: 'Record the payment of a claim',
      description: 'Sets `paidAmount` to the approved amount.',
    },
    close: { from: ['approved', 'paid', 'denied'], to: 'closed', action: 'insurance_claim.closed', summary: 'Close a claim' },
    reopen: {
      from: ['denied', 'closed'],
      to: 'under_review',
      action: 'insurance_claim.reopened',
      summary: 'Reopen a claim',
      description: 'Puts a denied or closed claim back under review (a new decision follows).',
    },
  },
});

// ---------------------------------------------------------------- quotes

export const insuranceQuotes = resource({
  rail: 'insurance',
  path: 'quotes',
  name: 'quote',
  label: { one: 'quote request', many: 'quote requests' },
  idPrefix: 'iqt',
  record: InsuranceQuote,
  statusField: 'status',
  filters: {
    status: z.enum(['open', 'accepted', 'withdrawn']).optional().meta({ description: 'Only quote requests in this status.' }),
    line: Line.optional().meta({ description: 'Only quote requests of this line.' }),
  },
  create: {
    body: CreateInsuranceQuoteBody,
    action: 'insurance_quote.requested',
    summary: 'Request quotes',
    description: 'Opens a quote request for a line with the limit, perils and period asked for; offers are recorded against it.',
    eventSummary: 'Quotes were requested for a line of insurance.',
  },
  transitions: {
    withdraw: { from: ['open'], to: 'withdrawn', action: 'insurance_quote.withdrawn', summary: 'Withdraw a quote request' },
    record_offer: {
      from: ['open'],
      path: 'offers',
      body: RecordInsuranceOfferBody,
      action: 'insurance_quote.offer_recorded',
      stateful: true,
      summary: 'Record an insurer’s offer',
      description: 'Adds an insurer’s offer (premium, limit, retention) to the quote request. An insurer offers once per request (409).',
      eventSummary: 'An insurer’s offer was recorded against a quote request.',
    },
  },
});

// ---------------------------------------------------------------- router

const { read, changes } = policyOf('insurance');
const IdParams = <T extends z.ZodType>(id: T) => z.object({ id });

/** The quote request's offer keeps the key the SDK has always had, beside the collection's routes. */
const { record_offer: recordOffer, ...quoteRoutes } = insuranceQuotes.routes;

export const insuranceRouter = railRouter('insurance', {
  policies: {
    ...insurancePolicies.routes,
    standing: get(
      '/policies/:id/standing',
      {
        pathParams: IdParams(PolicyId),
        query: z.object({ at: Timestamp.optional().meta({ description: 'The moment; now when absent.' }) }),
      },
      InsurancePolicyStanding,
      read,
    ).doc(
      'A policy’s standing at a moment',
      'Whether the policy is scheduled, in force, expired or cancelled at `at`. Needs `insurance:read`.',
    ),
  },
  claims: insuranceClaims.routes,
  coverage: get(
    '/coverage',
    { query: z.object({ at: Timestamp.optional().meta({ description: 'The moment policies must be in force; now when absent.' }) }) },
    InsuranceCoverage,
    read,
  ).doc(
    'Which register risks the policies cover',
    'Maps every open risk of the risk register (`/v1/risk-register/risks`) to the policies in force at `at` whose perils cover its domain (the fixed mapping is in `mapping`), and lists the risks no policy covers. Recomputed on every call: a new, cancelled or expired policy, or a new or closed risk, changes it. Needs `insurance:read`.',
  ),
  quotes: {
    ...quoteRoutes,
    recordOffer,
    comparison: get('/quotes/:id/comparison', { pathParams: IdParams(QuoteId) }, InsuranceQuoteComparison, read).doc(
      'Compare the offers',
      'Ranks the offers by premium per unit of limit (premium / limit), cheapest first. Needs `insurance:read`.',
    ),
    accept: post(
      '/quotes/:id/accept',
      { pathParams: IdParams(QuoteId), body: AcceptInsuranceOfferBody },
      { 201: InsurancePolicy },
      stateful(changes('insurance:approve', 'insurance_quote.accepted')),
    ).doc(
      'Accept an offer (creates the policy)',
      'Accepts one insurer’s offer of an open request: creates the policy with the request’s line, perils and period and the offer’s limit, retention and premium (audited as `insurance_policy.created`), and marks the request accepted (audited as `insurance_quote.accepted`). A request not open: 409; an insurer without an offer: 422. Needs `insurance:approve`.',
    ),
  },
});

/** Event types the insurance rail emits. */
export const insuranceEvents: ReturnType<typeof eventType>[] = [
  ...insurancePolicies.events,
  ...insuranceClaims.events,
  ...insuranceQuotes.events,
  eventType('insurance_quote.accepted', 'An offer was accepted; the policy it became is in `policyId`.', InsuranceQuote),
];
