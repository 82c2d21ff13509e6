import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { meta } from '../meta.ts';
import { claimIdPrefix, railRouter, resource } from '../resource.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, objectField, stamps } from '../shared/records.ts';
import { eventType } from '../webhook-events.ts';

/**
 * The specialists rail: the console of a specialist firm, open to the specialist tier only (the
 * catalogue's `onlyTiers`; an enterprise tenant is a client, not a firm, and gets 403). Firms, their consultants and certifications are records
 * of the firm's tenant; client engagements and the billing share are computed from the engagements
 * client tenants made with the firm in the marketplace.
 */

/** The `object` field of a specialists record; every description names `svc.specialists.firm` as its example. */
const objectOf = <const T extends string>(name: T) => objectField(name, 'svc.specialists.firm');

const EXAMPLE_FIRM = exampleId('frm');
const EXAMPLE_CONSULTANT = exampleId('csl');
const EXAMPLE_ENGAGEMENT = exampleId('meg');
const EXAMPLE_LISTING = exampleId('mls');
const EXAMPLE_TENANT = exampleId('ten');

/** The example stamps of a record that is never changed (no `updatedAt`). */
const EXAMPLE_CREATED = { createdBy: EXAMPLE_KEY, createdAt: EXAMPLE_AT };

export const SpecialistFirmId = prefixedId('frm', EXAMPLE_FIRM);
export const SpecialistConsultantId = prefixedId('csl', EXAMPLE_CONSULTANT);
const EngagementId = prefixedId('meg', EXAMPLE_ENGAGEMENT);

/** A jurisdiction code: ISO 3166 country or region (`EU`, `UK`, `DE`), optionally with a subdivision (`US-CA`). */
export const SpecialistJurisdiction = z
  .string()
  .regex(/^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$/)
  .meta({
    description: 'Jurisdiction code: two letters (`EU`, `UK`, `DE`), optionally with a subdivision (`US-CA`); stored upper case.',
    examples: ['EU'],
  });

/** A framework dictionary id (`eu-ai-act`, `gdpr`); the server checks it exists. */
export const SpecialistFrameworkRef = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}$/)
  .meta({ description: 'Id of a framework dictionary (`eu-ai-act`, `gdpr`); an unknown id is 422.', examples: ['eu-ai-act'] });

const SpecialistJurisdictions = z.array(SpecialistJurisdiction).min(1).max(50);

// ---------------------------------------------------------------- firms

const FIRM_EXAMPLE = {
  name: 'Northwind AI Assurance',
  description: 'EU AI Act and GDPR readiness for AI providers.',
  jurisdictions: ['EU', 'UK'],
};

export const SpecialistFirm = z
  .object({
    object: objectOf('svc.specialists.firm'),
    id: SpecialistFirmId,
    name: z.string().meta({ description: 'Name of the firm as clients see it.' }),
    description: z.string().nullable().meta({ description: 'What the firm does; null when not given.' }),
    jurisdictions: z.array(z.string()).meta({ description: 'Jurisdiction codes the firm works in, upper case (`EU`, `US-CA`).' }),
    ...created(),
  })
  .meta({
    id: 'SpecialistFirm',
    examples: [
      {
        object: 'svc.specialists.firm',
        id: EXAMPLE_FIRM,
        ...FIRM_EXAMPLE,
        ...EXAMPLE_CREATED,
      },
    ],
  });

export const CreateSpecialistFirmBody = z
  .strictObject({
    name: z.string().min(1).max(200).meta({ description: 'Name of the firm as clients see it.' }),
    description: z.string().min(1).max(2000).optional().meta({ description: 'What the firm does, up to 2,000 characters.' }),
    jurisdictions: SpecialistJurisdictions.meta({ description: 'Jurisdiction codes the firm works in, 1 to 50.' }),
  })
  .meta({
    id: 'CreateSpecialistFirmRequest',
    examples: [FIRM_EXAMPLE],
  });

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

const CONSULTANT_STATUSES = ['unlisted', 'listed'] as const;
const CONSULTANT_EXAMPLE = {
  name: 'Amara Okafor',
  headline: 'Former notified-body assessor; high-risk AI conformity.',
  expertise: ['eu-ai-act', 'gdpr'],
  jurisdictions: ['EU'],
};

export const SpecialistConsultant = z
  .object({
    object: objectOf('svc.specialists.consultant'),
    id: SpecialistConsultantId,
    firmId: SpecialistFirmId.meta({ description: 'Id of the firm the consultant works for.' }),
    name: z.string().meta({ description: 'Full name of the consultant.' }),
    headline: z.string().meta({ description: 'One-line profile shown in the marketplace.' }),
    expertise: z.array(z.string()).meta({ description: 'Framework dictionary ids the consultant knows (`eu-ai-act`, `gdpr`).' }),
    jurisdictions: z.array(z.string()).meta({ description: 'Jurisdiction codes the consultant works in, upper case.' }),
    status: z.enum(CONSULTANT_STATUSES).meta({
      description:
        '`listed`: shown to every tenant in the marketplace; `unlisted`: seen by the firm only. Changes through `list-in-marketplace` and `unlist`.',
    }),
    listed: z.boolean().meta({ description: 'True when `status` is `listed`.' }),
    ...stamps(),
  })
  .meta({
    id: 'SpecialistConsultant',
    examples: [
      {
        object: 'svc.specialists.consultant',
        id: EXAMPLE_CONSULTANT,
        firmId: EXAMPLE_FIRM,
        ...CONSULTANT_EXAMPLE,
        status: 'unlisted',
        listed: false,
        ...exampleStamps(),
      },
    ],
  });

export const CreateSpecialistConsultantBody = z
  .strictObject({
    firmId: SpecialistFirmId.optional().meta({
      description: "Firm of the tenant the consultant works for; absent: the tenant's first registered firm (422 when it has none).",
    }),
    name: z.string().min(1).max(200).meta({ description: 'Full name of the consultant.' }),
    headline: z.string().min(1).max(300).meta({ description: 'One-line profile shown in the marketplace, up to 300 characters.' }),
    expertise: z
      .array(SpecialistFrameworkRef)
      .min(1)
      .max(30)
      .meta({ description: 'Framework dictionary ids the consultant knows, 1 to 30; each must exist.' }),
    jurisdictions: SpecialistJurisdictions.meta({ description: 'Jurisdiction codes the consultant works in, 1 to 50.' }),
    listed: z.boolean().optional().meta({ description: 'Show the consultant in the marketplace from the start; false when absent.' }),
  })
  .meta({
    id: 'CreateSpecialistConsultantRequest',
    examples: [
      CONSULTANT_EXAMPLE,
      {
        firmId: EXAMPLE_FIRM,
        name: 'Jonas Weber',
        headline: 'GDPR and DPIA practice lead.',
        expertise: ['gdpr'],
        jurisdictions: ['EU', 'DE'],
        listed: true,
      },
    ],
  });

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

export const SpecialistCertification = z
  .object({
    object: objectOf('svc.specialists.certification'),
    id: prefixedId('scc', exampleId('scc')),
    firmId: SpecialistFirmId.meta({ description: 'Firm the certification belongs to (the consultant’s firm, or the certified firm).' }),
    consultantId: SpecialistConsultantId.nullable().meta({
      description: 'Consultant who holds it; null for a certification of the firm itself.',
    }),
    name: z.string().meta({ description: 'Name of the certification (`CIPP/E`, `ISO/IEC 42001 Lead Auditor`).' }),
    issuer: z.string().meta({ description: 'Body that issued it (`IAPP`, `PECB`).' }),
    validFrom: Timestamp.nullable().meta({ description: 'Start of validity (ISO 8601 UTC); null when not given.' }),
    validUntil: Timestamp.nullable().meta({ description: 'End of validity (ISO 8601 UTC); null when it does not expire.' }),
    expired: z.boolean().meta({ description: 'True when `validUntil` is in the past at the time of the response.' }),
    ...created(),
  })
  .meta({
    id: 'SpecialistCertification',
    examples: [
      {
        object: 'svc.specialists.certification',
        id: exampleId('scc'),
        firmId: EXAMPLE_FIRM,
        consultantId: EXAMPLE_CONSULTANT,
        name: 'CIPP/E',
        issuer: 'IAPP',
        validFrom: '2025-03-01T00:00:00.000Z',
        validUntil: '2027-03-01T00:00:00.000Z',
        expired: false,
        ...EXAMPLE_CREATED,
      },
    ],
  });

export const CreateSpecialistCertificationBody = z
  .strictObject({
    consultantId: SpecialistConsultantId.optional().meta({
      description: 'Consultant of the tenant who holds the certification; absent for a certification of the firm itself.',
    }),
    firmId: SpecialistFirmId.optional().meta({
      description:
        "Firm of a firm-level certification; absent: the consultant's firm, or the tenant's first firm. With `consultantId` it must be that consultant's firm.",
    }),
    name: z.string().min(1).max(200).meta({ description: 'Name of the certification (`CIPP/E`).' }),
    issuer: z.string().min(1).max(200).meta({ description: 'Body that issued it (`IAPP`).' }),
    validFrom: Timestamp.optional().meta({ description: 'Start of validity (ISO 8601 UTC).' }),
    validUntil: Timestamp.optional().meta({
      description: 'End of validity (ISO 8601 UTC), after `validFrom`; absent when it does not expire.',
    }),
  })
  .refine((b) => !b.validUntil || !b.validFrom || b.validUntil > b.validFrom, {
    path: ['validUntil'],
    message: 'validUntil must be after validFrom',
  })
  .meta({
    id: 'CreateSpecialistCertificationRequest',
    examples: [
      { name: 'ISO/IEC 27001:2022', issuer: 'BSI Group', validFrom: '2026-01-15T00:00:00.000Z', validUntil: '2029-01-14T00:00:00.000Z' },
      { consultantId: EXAMPLE_CONSULTANT, name: 'CIPP/E', issuer: 'IAPP', validUntil: '2027-03-01T00:00:00.000Z' },
    ],
  });

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

// ---------------------------------------------------------------- client engagements

export const SpecialistClientEngagement = z
  .object({
    object: objectOf('svc.specialists.client_engagement'),
    engagementId: EngagementId.meta({ description: 'Id of the marketplace engagement that grants the access.' }),
    tenant: z.string().meta({ description: 'Id of the client tenant.' }),
    tenantName: z.string().meta({ description: 'Name of the client tenant.' }),
    firmId: SpecialistFirmId.meta({ description: 'Firm the client engaged.' }),
    listingId: prefixedId('mls', EXAMPLE_LISTING).meta({ description: 'Listing the client engaged the firm through.' }),
    since: Timestamp.meta({ description: 'When the client engaged the firm (ISO 8601 UTC).' }),
    score: z.number().min(0).max(1).meta({
      description:
        "Client's posture score, 0 to 1: share of the controls of its activated frameworks cited by unexpired evidence (the trust rail's posture).",
    }),
    controls: z.int().min(0).meta({ description: 'Controls counted in `score`, over the client’s activated frameworks.' }),
    evidenced: z.int().min(0).meta({ description: 'Of those, the controls with unexpired evidence.' }),
    frameworks: z.array(z.string()).meta({ description: 'Framework ids the client has activated.' }),
    openFindings: z.int().min(0).meta({ description: 'Self-audit findings of the client in status `open`.' }),
  })
  .meta({
    id: 'SpecialistClientEngagement',
    examples: [
      {
        object: 'svc.specialists.client_engagement',
        engagementId: EXAMPLE_ENGAGEMENT,
        tenant: EXAMPLE_TENANT,
        tenantName: 'Acme AI',
        firmId: EXAMPLE_FIRM,
        listingId: EXAMPLE_LISTING,
        since: EXAMPLE_AT,
        score: 0.25,
        controls: 4,
        evidenced: 1,
        frameworks: ['eu-ai-act'],
        openFindings: 2,
      },
    ],
  });

// ---------------------------------------------------------------- billing share

claimIdPrefix('sbs', 'svc.specialists.fee');

export const BillingPeriod = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/)
  .meta({ description: 'Billing period: a calendar month `YYYY-MM`.', examples: ['2026-11'] });

export const SpecialistFee = z
  .object({
    object: objectOf('svc.specialists.fee'),
    id: prefixedId('sbs', exampleId('sbs')),
    engagementId: EngagementId.meta({ description: 'Engagement the fee was billed for.' }),
    period: BillingPeriod,
    amountCents: z.int().min(1).meta({ description: 'Fee billed to the client, in minor units (cents) of `currency`.' }),
    currency: z.string().meta({ description: 'ISO 4217 currency code, upper case (`EUR`).' }),
    description: z.string().nullable().meta({ description: 'What was billed; null when not given.' }),
    ...created(),
  })
  .meta({
    id: 'SpecialistFee',
    examples: [
      {
        object: 'svc.specialists.fee',
        id: exampleId('sbs'),
        engagementId: EXAMPLE_ENGAGEMENT,
        period: '2026-11',
        amountCents: 1_200_000,
        currency: 'EUR',
        description: 'Gap assessment, EU AI Act',
        ...EXAMPLE_CREATED,
      },
    ],
  });

export const CreateSpecialistFeeBody = z
  .strictObject({
    engagementId: EngagementId.meta({
      description:
        'An engagement of a client with one of the tenant’s firms, in any state (fees may be billed after it ended); another one is 404.',
    }),
    period: BillingPeriod,
    amountCents: z
      .int()
      .min(1)
      .max(2_000_000_000)
      .meta({ description: 'Fee billed to the client, in minor units (cents), 1 to 2,000,000,000.' }),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/)
      .default('EUR')
      .meta({ description: 'ISO 4217 currency code; `EUR` when absent.' }),
    description: z.string().min(1).max(500).optional().meta({ description: 'What was billed, up to 500 characters.' }),
  })
  .meta({
    id: 'CreateSpecialistFeeRequest',
    examples: [
      { engagementId: EXAMPLE_ENGAGEMENT, period: '2026-11', amountCents: 1_200_000, currency: 'EUR', description: 'Gap assessment' },
    ],
  });

/** The example share of one fee of 12,000 EUR at 8000 basis points. */
const AMOUNTS_EXAMPLE = { feesCents: 1_200_000, firmShareCents: 960_000, platformShareCents: 240_000 };

const Amounts = {
  feesCents: z.int().min(0).meta({ description: 'Sum of the fees recorded, in cents of `currency`.' }),
  firmShareCents: z
    .int()
    .min(0)
    .meta({ description: 'The firm’s share: each fee × `rateBps` / 10,000, rounded half up to the cent, summed.' }),
  platformShareCents: z.int().min(0).meta({ description: 'The rest, kept by the platform: `feesCents − firmShareCents`.' }),
};

export const SpecialistBillingShare = z
  .object({
    object: objectOf('svc.specialists.billing_share'),
    period: BillingPeriod.nullable().meta({ description: 'The billing period asked for; null for every period.' }),
    lines: z
      .array(
        z.object({
          engagementId: EngagementId.meta({ description: 'The engagement.' }),
          tenant: z.string().meta({ description: 'Id of the client tenant.' }),
          firmId: SpecialistFirmId.meta({ description: 'Firm of the engagement.' }),
          period: BillingPeriod,
          currency: z.string().meta({ description: 'ISO 4217 currency of the amounts.' }),
          rateBps: z
            .int()
            .min(0)
            .max(10_000)
            .meta({ description: 'The firm’s revenue share for the engagement, in basis points (8000 = 80 %).' }),
          fees: z.int().min(1).meta({ description: 'Number of fee records summed.' }),
          ...Amounts,
        }),
      )
      .meta({ description: 'One line per engagement, period and currency with fees, by period then engagement id.' }),
    totals: z
      .array(z.object({ currency: z.string().meta({ description: 'ISO 4217 currency.' }), ...Amounts }))
      .meta({ description: 'The lines summed per currency.' }),
    computedAt: Timestamp.meta({ description: 'When the share was computed (ISO 8601 UTC).' }),
  })
  .meta({
    id: 'SpecialistBillingShare',
    examples: [
      {
        object: 'svc.specialists.billing_share',
        period: '2026-11',
        lines: [
          {
            engagementId: EXAMPLE_ENGAGEMENT,
            tenant: EXAMPLE_TENANT,
            firmId: EXAMPLE_FIRM,
            period: '2026-11',
            currency: 'EUR',
            rateBps: 8000,
            fees: 1,
            ...AMOUNTS_EXAMPLE,
          },
        ],
        totals: [{ currency: 'EUR', ...AMOUNTS_EXAMPLE }],
        computedAt: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- router

const read = meta({ auth: 'tenant', rail: 'specialists', permission: 'specialists:read', mutating: false });

export const specialistsRouter = railRouter('specialists', {
  firms: specialistFirms.routes,
  consultants: specialistConsultants.routes,
  certifications: specialistCertifications.routes,
  clientEngagements: {
    method: 'GET',
    path: '/client-engagements',
    query: PaginationQuery.extend({
      firmId: SpecialistFirmId.optional().meta({ description: 'Only engagements of this firm of the tenant.' }),
    }),
    responses: { 200: listOf(SpecialistClientEngagement) },
    summary: 'List client engagements with live posture',
    description:
      "One item per active engagement a client tenant made with one of the tenant's firms in the marketplace, newest first, as `{ data, cursor }`. `score` and `openFindings` are computed at request time from that client's activated frameworks, unexpired evidence and open self-audit findings; an engagement the client ended or revoked disappears at once. Needs `specialists:read`.",
    metadata: read,
  },
  fees: {
    list: {
      method: 'GET',
      path: '/billing-share/fees',
      query: PaginationQuery.extend({
        engagementId: EngagementId.optional().meta({ description: 'Only fees of this engagement.' }),
        period: BillingPeriod.optional().meta({ description: 'Only fees of this billing period.' }),
      }),
      responses: { 200: listOf(SpecialistFee) },
      summary: 'List recorded fees',
      description:
        'Fees the tenant recorded for its engagements, newest first, optionally by engagement or period. Needs `specialists:read`.',
      metadata: meta({ ...read, source: { object: 'svc.specialists.fee' } }),
    },
    create: {
      method: 'POST',
      path: '/billing-share/fees',
      body: CreateSpecialistFeeBody,
      responses: { 201: SpecialistFee },
      summary: 'Record a fee of an engagement',
      description:
        'Records a fee billed to the client of an engagement with one of the tenant’s firms, for a billing period; the billing share is computed from these. 404 `not_found` for an engagement that is not the firm’s. Audited (`specialist_fee.recorded`). Needs `specialists:write`.',
      metadata: meta({
        auth: 'tenant',
        rail: 'specialists',
        permission: 'specialists:write',
        mutating: true,
        audit: 'specialist_fee.recorded',
      }),
    },
  },
  billingShare: {
    method: 'GET',
    path: '/billing-share',
    query: z.object({ period: BillingPeriod.optional().meta({ description: 'Only this billing period; every period when absent.' }) }),
    responses: { 200: SpecialistBillingShare },
    summary: 'Compute the billing share',
    description:
      "The firm's revenue share per engagement and period: the fees recorded, the engagement's rate in basis points (agreed through the listing when the client engaged), the firm's share (each fee × rate / 10,000, rounded half up to the cent) and the platform's, with totals per currency. Computed at request time; stores nothing. Needs `specialists:read`.",
    metadata: read,
  },
});

/** Event types the specialists rail emits. */
export const specialistsEvents: ReturnType<typeof eventType>[] = [
  ...specialistFirms.events,
  ...specialistConsultants.events,
  ...specialistCertifications.events,
  eventType('specialist_fee.recorded', 'A firm recorded a fee of an engagement.', SpecialistFee),
];
