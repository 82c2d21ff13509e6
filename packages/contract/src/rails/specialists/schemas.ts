import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import { CONSULTANT_STATUSES, EngagementId, EXAMPLE_ENGAGEMENT, FIRM_EXAMPLE } from './fields.ts';

/** The specialists rail's records, request bodies and their examples (index.ts describes the rail). */

/** The `object` field of a specialists record; every description names `svc.specialists.firm` as its example. */
const objectOf = <const T extends string>(name: T) => objectField(name, 'svc.specialists.firm');

const EXAMPLE_FIRM = exampleId('frm');
const EXAMPLE_CONSULTANT = exampleId('csl');
const EXAMPLE_LISTING = exampleId('mls');
const EXAMPLE_TENANT = exampleId('ten');

/** The example stamps of a record that is never changed (no `updatedAt`). */
const EXAMPLE_CREATED = { createdBy: EXAMPLE_KEY, createdAt: EXAMPLE_AT };

export const SpecialistFirmId = prefixedId('frm', EXAMPLE_FIRM);
export const SpecialistConsultantId = prefixedId('csl', EXAMPLE_CONSULTANT);

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

// ---------------------------------------------------------------- consultants

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
