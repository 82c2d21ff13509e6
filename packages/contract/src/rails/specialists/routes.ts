import { z } from 'zod';
import { get, policyOf } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import type { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';
import { CONSULTANT_STATUSES, EngagementId, FIRM_EXAMPLE } from './fields.ts';
import {
  BillingPeriod,
  CreateSpecialistCertificationBody,
  CreateSpecialistConsultantBody,
  CreateSpecialistFeeBody,
  CreateSpecialistFirmBody,
  SpecialistBillingShare,
  SpecialistCertification,
  SpecialistClientEngagement,
  SpecialistConsultant,
  SpecialistFee,
  SpecialistFirm,
  SpecialistFirmId,
} from './schemas.ts';

/** The specialists rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- firms

const FIRM_SETUP = [{ method: 'POST', path: '/v1/specialists/firms', body: FIRM_EXAMPLE }] as const;

export const specialistFirms = resource({
  rail: 'specialists',
  path: 'firms',
  name: 'firm',
  label: { one: 'firm', many: 'firms' },
  idPrefix: 'frm',
  record: SpecialistFirm,
  create: {
    body: CreateSpecialistFirmBody,
    summary: 'Register a firm',
    description:
      'Registers a specialist firm of the tenant. A tenant may run several firms (brands, practices); consultants, certifications and marketplace listings belong to one of them.',
    eventSummary: 'A specialist firm was registered.',
  },
});

// ---------------------------------------------------------------- consultants

export const specialistConsultants = resource({
  rail: 'specialists',
  path: 'consultants',
  name: 'consultant',
  label: { one: 'consultant', many: 'consultants' },
  idPrefix: 'csl',
  record: SpecialistConsultant,
  statusField: 'status',
  filters: {
    firmId: SpecialistFirmId.optional(),
    status: z.enum(CONSULTANT_STATUSES).optional(),
  },
  setup: FIRM_SETUP,
  create: {
    body: CreateSpecialistConsultantBody,
    summary: 'Add a consultant',
    description:
      "Adds a consultant to one of the tenant's firms. `expertise` must name framework dictionaries that exist (422 naming `expertise` otherwise); a `firmId` that is not the tenant's is 422.",
    eventSummary: 'A consultant was added to a firm.',
  },
  transitions: {
    // `list` is the list route's key: the verb says where the consultant is listed.
    list_in_marketplace: {
      from: ['unlisted'],
      to: 'listed',
      action: 'consultant.listed',
      summary: 'List a consultant in the marketplace',
      description: 'Shows the consultant (public fields only) to every tenant in `GET /v1/marketplace/specialists`.',
    },
    unlist: {
      from: ['listed'],
      to: 'unlisted',
      summary: 'Take a consultant out of the marketplace',
      description: 'Hides the consultant from the marketplace.',
    },
  },
});

// ---------------------------------------------------------------- certifications

export const specialistCertifications = resource({
  rail: 'specialists',
  path: 'certifications',
  name: 'certification',
  label: { one: 'certification', many: 'certifications' },
  idPrefix: 'scc',
  record: SpecialistCertification,
  filters: { firmId: SpecialistFirmId.optional() },
  setup: FIRM_SETUP,
  create: {
    body: CreateSpecialistCertificationBody,
    action: 'specialist_certification.created',
    summary: 'Record a certification',
    description:
      'Records a certification of a consultant (or of the firm); `expired` is computed at read time and the marketplace shows the unexpired ones.',
    eventSummary: 'A certification of a consultant or firm was recorded.',
  },
});

// ---------------------------------------------------------------- fees

/** Fees a firm bills the clients that engaged it; the billing share is computed from them. */
export const specialistFees = resource({
  rail: 'specialists',
  path: 'billing-share/fees',
  name: 'fee',
  label: { one: 'fee', many: 'fees' },
  idPrefix: 'sbs',
  record: SpecialistFee,
  get: false,
  filters: {
    engagementId: EngagementId.optional().meta({ description: 'Only fees of this engagement.' }),
    period: BillingPeriod.optional().meta({ description: 'Only fees of this billing period.' }),
  },
  notes: { list: 'Fees the tenant recorded for the engagements of its firms.' },
  // The firm lists and publishes an offer; a client (another tenant) engages it.
  setup: [
    { method: 'POST', path: '/v1/specialists/firms', body: FIRM_EXAMPLE, as: 'firm' },
    {
      method: 'POST',
      path: '/v1/marketplace/listings',
      body: {
        firmId: '{{firm.id}}',
        title: 'EU AI Act readiness',
        services: ['gap assessment'],
        frameworks: ['eu-ai-act'],
        priceMinEur: 10_000,
        priceMaxEur: 20_000,
      },
      as: 'listing',
    },
    { method: 'POST', path: '/v1/marketplace/listings/{{listing.id}}/publish', body: {} },
    { method: 'POST', path: '/v1/marketplace/engagements', body: { listingId: '{{listing.id}}' }, as: 'engagement', tenant: 'peer' },
  ],
  create: {
    body: CreateSpecialistFeeBody,
    action: 'specialist_fee.recorded',
    summary: 'Record a fee of an engagement',
    description:
      'Records a fee billed to the client of an engagement with one of the tenant’s firms, for a billing period; the billing share is computed from these. 404 `not_found` for an engagement that is not the firm’s.',
    eventSummary: 'A firm recorded a fee of an engagement.',
    fixture: {
      engagementId: '{{engagement.id}}',
      period: '2026-11',
      amountCents: 1_200_000,
      currency: 'EUR',
      description: 'Gap assessment',
    },
  },
});

// ---------------------------------------------------------------- router

const { read } = policyOf('specialists');

export const specialistsRouter = railRouter('specialists', {
  firms: specialistFirms.routes,
  consultants: specialistConsultants.routes,
  certifications: specialistCertifications.routes,
  clientEngagements: get(
    '/client-engagements',
    {
      query: PaginationQuery.extend({
        firmId: SpecialistFirmId.optional().meta({ description: 'Only engagements of this firm of the tenant.' }),
      }),
    },
    listOf(SpecialistClientEngagement),
    read,
  ).doc(
    'List client engagements with live posture',
    "One item per active engagement a client tenant made with one of the tenant's firms in the marketplace, newest first, as `{ data, cursor }`. `score` and `openFindings` are computed at request time from that client's activated frameworks, unexpired evidence and open self-audit findings; an engagement the client ended or revoked disappears at once. Needs `specialists:read`.",
  ),
  fees: {
    list: specialistFees.routes.list,
    create: specialistFees.routes.create,
  },
  billingShare: get(
    '/billing-share',
    { query: z.object({ period: BillingPeriod.optional().meta({ description: 'Only this billing period; every period when absent.' }) }) },
    SpecialistBillingShare,
    read,
  ).doc(
    'Compute the billing share',
    "The firm's revenue share per engagement and period: the fees recorded, the engagement's rate in basis points (agreed through the listing when the client engaged), the firm's share (each fee × rate / 10,000, rounded half up to the cent) and the platform's, with totals per currency. Computed at request time; stores nothing. Needs `specialists:read`.",
  ),
});

/** Event types the specialists rail emits. */
export const specialistsEvents: ReturnType<typeof eventType>[] = [
  ...specialistFirms.events,
  ...specialistConsultants.events,
  ...specialistCertifications.events,
  ...specialistFees.events,
];
