import { z } from 'zod';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import { EXAMPLE_POLICY, EXAMPLE_QUOTE, Line, POLICY_PERIOD_EXAMPLE, PolicyId, QuoteId } from './fields.ts';

/** The insurance rail's records, request bodies and their examples (index.ts describes the rail). */

/** Perils a policy may cover: a fixed vocabulary, which the coverage view maps risk domains to. */
export const INSURANCE_PERILS = [
  'data_breach',
  'ransomware',
  'business_interruption',
  'privacy_liability',
  'regulatory_fines',
  'technology_errors',
  'ai_liability',
  'vendor_failure',
  'management_liability',
  'crime_fraud',
] as const;

export const INSURANCE_CLAIM_STATUSES = ['draft', 'submitted', 'under_review', 'approved', 'denied', 'paid', 'closed'] as const;

/** The `object` field of a record of the rail (the description names the policy as its example). */
const objectOf = <const T extends string>(name: T) => objectField(name, 'svc.insurance.policy');
/** The stamps of the rail's records, whose `updatedAt` is described in a few words. */
const insuranceStamps = () => stamps('When the record last changed.');

const EXAMPLE_CLAIM = exampleId('icl');
const ClaimId = prefixedId('icl', EXAMPLE_CLAIM);

const Peril = z.enum(INSURANCE_PERILS).meta({
  description:
    'A covered peril: `data_breach`, `ransomware`, `business_interruption`, `privacy_liability`, `regulatory_fines`, `technology_errors`, `ai_liability`, `vendor_failure`, `management_liability`, `crime_fraud`.',
});
const Amount = (description: string) => z.int().min(0).max(1_000_000_000_000).meta({ description });
/** An amount a request states, more than 0. */
const PositiveAmount = (description: string) => z.int().min(1).max(1_000_000_000_000).meta({ description });
/** An amount that may be null: the description on the nullable schema, where the document shows it. */
const NullableAmount = (description: string) => z.int().min(0).max(1_000_000_000_000).nullable().meta({ description });
const Currency = z
  .string()
  .regex(/^[A-Z]{3}$/)
  .meta({ description: 'ISO 4217 currency of every amount (`EUR`).', examples: ['EUR'] });
const Insurer = z.string().trim().min(1).max(200).meta({ description: 'Name of the insurer.' });

// ---------------------------------------------------------------- policies

export const InsurancePolicyState = z.enum(['scheduled', 'in_force', 'expired', 'cancelled']).meta({
  description:
    'Standing at a moment: `scheduled` (before `periodStart`), `in_force` (from `periodStart` to before `periodEnd`, not cancelled by then), `expired` (from `periodEnd`), `cancelled` (at or after `cancelledAt`).',
});

/** The terms of the example policy (its create request and its record). */
const POLICY_TERMS_EXAMPLE = {
  insurer: 'Example Mutual',
  line: 'cyber',
  policyNumber: 'CY-2026-0042',
  currency: 'EUR',
  limit: 5_000_000,
  retention: 100_000,
  premium: 85_000,
  ...POLICY_PERIOD_EXAMPLE,
  perils: ['data_breach', 'ransomware', 'business_interruption'],
  exclusions: ['War and state-sponsored attacks'],
};

export const InsurancePolicy = z
  .object({
    object: objectOf('svc.insurance.policy'),
    id: PolicyId,
    insurer: z.string().meta({ description: 'Name of the insurer.' }),
    line: Line,
    policyNumber: z.string().nullable().meta({ description: 'The insurer’s policy number, when given.' }),
    currency: Currency,
    limit: Amount('Aggregate limit of liability, in whole units of `currency`.'),
    retention: Amount('Retention (deductible) the tenant bears per claim, in whole units of `currency`.'),
    premium: NullableAmount('Annual premium, when known.'),
    periodStart: Timestamp.meta({ description: 'Start of the policy period (inclusive).' }),
    periodEnd: Timestamp.meta({ description: 'End of the policy period (exclusive).' }),
    perils: z.array(Peril).meta({ description: 'Covered perils.' }),
    exclusions: z.array(z.string()).meta({ description: 'Exclusions of the wording, as stated.' }),
    status: z.enum(['active', 'cancelled']).meta({ description: '`active` until cancelled; its standing by date is `state`.' }),
    state: InsurancePolicyState.meta({ description: 'Standing now (see `GET /policies/{id}/standing?at=` for another moment).' }),
    cancelledAt: Timestamp.nullable().meta({ description: 'When the policy was cancelled; null while active.' }),
    quoteId: QuoteId.nullable().meta({ description: 'The quote request whose accepted offer became this policy, when one.' }),
    ...insuranceStamps(),
  })
  .meta({
    id: 'InsurancePolicy',
    examples: [
      {
        object: 'svc.insurance.policy',
        id: EXAMPLE_POLICY,
        ...POLICY_TERMS_EXAMPLE,
        status: 'active',
        state: 'in_force',
        cancelledAt: null,
        quoteId: null,
        ...exampleStamps('2026-01-02T09:30:00.000Z'),
      },
    ],
  });

const PolicyTerms = {
  insurer: Insurer,
  line: Line,
  policyNumber: z.string().trim().min(1).max(100).optional().meta({ description: 'The insurer’s policy number.' }),
  currency: Currency,
  limit: PositiveAmount('Aggregate limit of liability, whole units, more than 0.'),
  retention: Amount('Retention (deductible) per claim, whole units.'),
  premium: Amount('Annual premium, whole units.').optional(),
  periodStart: Timestamp.meta({ description: 'Start of the policy period (inclusive).' }),
  periodEnd: Timestamp.meta({ description: 'End of the policy period (exclusive), after `periodStart` (422 otherwise).' }),
  perils: z.array(Peril).min(1).max(INSURANCE_PERILS.length).meta({ description: 'Covered perils, each once.' }),
  exclusions: z
    .array(z.string().trim().min(1).max(500))
    .max(50)
    .optional()
    .meta({ description: 'Exclusions of the wording; none when absent.' }),
};

export const CreateInsurancePolicyBody = z
  .strictObject(PolicyTerms)
  .meta({ id: 'CreateInsurancePolicyRequest', examples: [POLICY_TERMS_EXAMPLE] });

export const InsurancePolicyStanding = z
  .object({
    object: objectOf('svc.insurance.policy_standing'),
    policyId: PolicyId,
    at: Timestamp.meta({ description: 'The moment the standing is computed for.' }),
    state: InsurancePolicyState,
    inForce: z.boolean().meta({ description: 'True when `state` is `in_force`: a loss at `at` may be claimed.' }),
  })
  .meta({
    id: 'InsurancePolicyStanding',
    examples: [
      {
        object: 'svc.insurance.policy_standing',
        policyId: EXAMPLE_POLICY,
        at: '2026-06-01T00:00:00.000Z',
        state: 'in_force',
        inForce: true,
      },
    ],
  });

// ---------------------------------------------------------------- claims

/** The loss of the example claim (its create request and its record). */
const LOSS_EXAMPLE = {
  title: 'Ransomware on the loan platform',
  description: 'Systems encrypted for three days; forensics and restoration costs.',
  lossDate: '2026-03-10T00:00:00.000Z',
};

export const InsuranceClaim = z
  .object({
    object: objectOf('svc.insurance.claim'),
    id: ClaimId,
    policyId: PolicyId,
    riskId: z.string().nullable().meta({ description: 'The risk-register risk that materialised, when named.' }),
    title: z.string().meta({ description: 'Short name of the loss.' }),
    description: z.string().nullable().meta({ description: 'What happened, when given.' }),
    lossDate: Timestamp.meta({ description: 'When the loss occurred; the policy was in force then.' }),
    currency: Currency,
    amountClaimed: Amount('Amount of the loss claimed, whole units of the policy’s currency.'),
    policyLimit: Amount('The policy’s aggregate limit when the claim was filed.'),
    policyRetention: Amount('The policy’s retention when the claim was filed.'),
    payable: Amount(
      'Computed: `min(max(amountClaimed - policyRetention, 0), policyLimit)`, what the policy pays for this loss alone, before other claims use up the aggregate limit.',
    ),
    approvedAmount: NullableAmount(
      'Set on approval: `payable`, capped by what the aggregate limit has left after the policy’s other approved, paid or closed-paid claims; null before.',
    ),
    paidAmount: NullableAmount('Set on payment: the approved amount; null before.'),
    status: z.enum(INSURANCE_CLAIM_STATUSES).meta({
      description:
        'Lifecycle: `draft` -> `submitted` -> `under_review` -> `approved` or `denied`; `approved` -> `paid`; `approved`, `paid` or `denied` -> `closed`; `denied` or `closed` -> `under_review` (reopen).',
    }),
    submittedAt: Timestamp.nullable().meta({ description: 'When the claim was submitted to the insurer.' }),
    decidedAt: Timestamp.nullable().meta({ description: 'When it was last approved or denied.' }),
    paidAt: Timestamp.nullable().meta({ description: 'When it was paid.' }),
    closedAt: Timestamp.nullable().meta({ description: 'When it was closed.' }),
    ...insuranceStamps(),
  })
  .meta({
    id: 'InsuranceClaim',
    examples: [
      {
        object: 'svc.insurance.claim',
        id: EXAMPLE_CLAIM,
        policyId: EXAMPLE_POLICY,
        riskId: null,
        ...LOSS_EXAMPLE,
        currency: 'EUR',
        amountClaimed: 350_000,
        policyLimit: 5_000_000,
        policyRetention: 100_000,
        payable: 250_000,
        approvedAmount: null,
        paidAmount: null,
        status: 'draft',
        submittedAt: null,
        decidedAt: null,
        paidAt: null,
        closedAt: null,
        ...exampleStamps('2026-03-11T09:30:00.000Z'),
      },
    ],
  });

export const CreateInsuranceClaimBody = z
  .strictObject({
    policyId: PolicyId.meta({ description: 'The policy claimed under: a policy of the tenant in force at `lossDate` (422 otherwise).' }),
    riskId: z
      .string()
      .min(4)
      .max(64)
      .optional()
      .meta({ description: 'A risk of the risk register that materialised (422 when not the tenant’s).' }),
    title: z.string().trim().min(1).max(200).meta({ description: 'Short name of the loss.' }),
    description: z.string().trim().min(1).max(4000).optional().meta({ description: 'What happened.' }),
    lossDate: Timestamp.meta({ description: 'When the loss occurred; not in the future.' }),
    amountClaimed: PositiveAmount('Amount of the loss, whole units of the policy’s currency.'),
  })
  .meta({
    id: 'CreateInsuranceClaimRequest',
    examples: [
      {
        policyId: EXAMPLE_POLICY,
        ...LOSS_EXAMPLE,
        amountClaimed: 350_000,
      },
    ],
  });

// ---------------------------------------------------------------- coverage

export const InsuranceCoveringPolicy = z
  .object({
    policyId: PolicyId,
    insurer: z.string().meta({ description: 'Insurer of the policy.' }),
    line: Line,
    currency: Currency,
    limit: Amount('Aggregate limit of the policy.'),
    retention: Amount('Retention of the policy.'),
    limitAvailable: Amount('The limit left after the approved, paid and closed-paid claims under the policy.'),
    matchedPerils: z.array(Peril).meta({ description: 'Perils of the policy the risk’s domain maps to.' }),
  })
  .meta({ id: 'InsuranceCoveringPolicy' });

export const InsuranceCoverageRisk = z
  .object({
    riskId: z.string().meta({ description: 'Id of the risk-register risk.' }),
    title: z.string().meta({ description: 'Title of the risk.' }),
    domain: z.string().meta({ description: 'Domain of the risk.' }),
    status: z.string().meta({ description: 'Status of the risk (closed risks are left out).' }),
    residualScore: z
      .int()
      .meta({ description: 'Residual likelihood x impact of the risk (1 to 25): the register’s measure of its exposure.' }),
    perils: z.array(Peril).meta({ description: 'Perils the risk’s domain maps to (the mapping is listed in `mapping`).' }),
    policies: z
      .array(InsuranceCoveringPolicy)
      .meta({ description: 'Policies in force at `at` covering one of those perils; empty when uncovered.' }),
    limitAvailable: z
      .record(z.string(), z.int())
      .meta({ description: 'Per currency, the total limit left across the covering policies; empty when uncovered.' }),
  })
  .meta({ id: 'InsuranceCoverageRisk' });

export const InsuranceCoverage = z
  .object({
    object: objectOf('svc.insurance.coverage'),
    at: Timestamp.meta({ description: 'The moment the policies’ standing is computed for.' }),
    policiesInForce: z.int().min(0).meta({ description: 'Policies of the tenant in force at `at`.' }),
    covered: z
      .array(InsuranceCoverageRisk)
      .meta({ description: 'Open risks at least one policy in force covers, highest residual score first.' }),
    uncovered: z.array(InsuranceCoverageRisk).meta({ description: 'Open risks no policy in force covers, highest residual score first.' }),
    mapping: z.record(z.string(), z.array(Peril)).meta({ description: 'The fixed mapping of risk domains to the perils that cover them.' }),
  })
  .meta({
    id: 'InsuranceCoverage',
    examples: [
      {
        object: 'svc.insurance.coverage',
        at: '2026-06-01T00:00:00.000Z',
        policiesInForce: 1,
        covered: [
          {
            riskId: exampleId('rsk'),
            title: 'Ransomware on the loan platform',
            domain: 'security',
            status: 'open',
            residualScore: 12,
            perils: ['data_breach', 'ransomware'],
            policies: [
              {
                policyId: EXAMPLE_POLICY,
                insurer: 'Example Mutual',
                line: 'cyber',
                currency: 'EUR',
                limit: 5_000_000,
                retention: 100_000,
                limitAvailable: 5_000_000,
                matchedPerils: ['data_breach', 'ransomware'],
              },
            ],
            limitAvailable: { EUR: 5_000_000 },
          },
        ],
        uncovered: [],
        mapping: { security: ['data_breach', 'ransomware'] },
      },
    ],
  });

// ---------------------------------------------------------------- quotes

/** What the example quote request asks for (its create request and its record). */
const QUOTE_REQUEST_EXAMPLE = {
  line: 'cyber',
  currency: 'EUR',
  requestedLimit: 5_000_000,
  perils: ['data_breach', 'ransomware'],
  periodStart: '2027-01-01T00:00:00.000Z',
  periodEnd: '2028-01-01T00:00:00.000Z',
};

/** The example insurer's offer (its request, the quote's record and the comparison). */
const OFFER_EXAMPLE = { insurer: 'Example Mutual', premium: 90_000, limit: 5_000_000, retention: 100_000 };

export const InsuranceQuoteOffer = z
  .object({
    insurer: z.string().meta({ description: 'Insurer offering.' }),
    premium: Amount('Annual premium offered.'),
    limit: Amount('Aggregate limit offered.'),
    retention: Amount('Retention offered.'),
    premiumPerUnitOfLimit: z.number().meta({ description: 'Computed: premium / limit (6 decimals).' }),
    receivedAt: Timestamp.meta({ description: 'When the offer was recorded.' }),
    recordedBy: z.string().meta({ description: 'Key that recorded it.' }),
  })
  .meta({ id: 'InsuranceQuoteOffer' });

export const InsuranceQuote = z
  .object({
    object: objectOf('svc.insurance.quote'),
    id: QuoteId,
    line: Line,
    currency: Currency,
    requestedLimit: Amount('Limit asked for.'),
    perils: z.array(Peril).meta({ description: 'Perils asked to be covered.' }),
    periodStart: Timestamp.meta({ description: 'Start of the period asked for.' }),
    periodEnd: Timestamp.meta({ description: 'End of the period asked for (exclusive).' }),
    notes: z.string().nullable().meta({ description: 'Notes for the insurers, when given.' }),
    status: z
      .enum(['open', 'accepted', 'withdrawn'])
      .meta({ description: '`open` (takes offers) until an offer is accepted or it is withdrawn.' }),
    offers: z.array(InsuranceQuoteOffer).meta({ description: 'Offers recorded, in the order received.' }),
    acceptedInsurer: z.string().nullable().meta({ description: 'Insurer whose offer was accepted; null before.' }),
    policyId: PolicyId.nullable().meta({ description: 'The policy the accepted offer became; null before.' }),
    ...insuranceStamps(),
  })
  .meta({
    id: 'InsuranceQuote',
    examples: [
      {
        object: 'svc.insurance.quote',
        id: EXAMPLE_QUOTE,
        ...QUOTE_REQUEST_EXAMPLE,
        notes: null,
        status: 'open',
        offers: [
          {
            ...OFFER_EXAMPLE,
            premiumPerUnitOfLimit: 0.018,
            receivedAt: EXAMPLE_AT,
            recordedBy: EXAMPLE_KEY,
          },
        ],
        acceptedInsurer: null,
        policyId: null,
        createdBy: EXAMPLE_KEY,
        createdAt: '2026-11-22T09:00:00.000Z',
        updatedAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateInsuranceQuoteBody = z
  .strictObject({
    line: Line,
    currency: Currency,
    requestedLimit: PositiveAmount('Limit asked for, whole units.'),
    perils: z.array(Peril).min(1).max(INSURANCE_PERILS.length).meta({ description: 'Perils to cover, each once.' }),
    periodStart: Timestamp.meta({ description: 'Start of the period asked for.' }),
    periodEnd: Timestamp.meta({ description: 'End of the period asked for, after `periodStart`.' }),
    notes: z.string().trim().min(1).max(4000).optional().meta({ description: 'Notes for the insurers.' }),
  })
  .meta({
    id: 'CreateInsuranceQuoteRequest',
    examples: [QUOTE_REQUEST_EXAMPLE],
  });

export const RecordInsuranceOfferBody = z
  .strictObject({
    insurer: Insurer,
    premium: Amount('Annual premium offered, whole units.'),
    limit: PositiveAmount('Aggregate limit offered, whole units, more than 0.'),
    retention: Amount('Retention offered, whole units.'),
  })
  .meta({
    id: 'RecordInsuranceOfferRequest',
    examples: [OFFER_EXAMPLE],
  });

export const InsuranceQuoteComparison = z
  .object({
    object: objectOf('svc.insurance.quote_comparison'),
    quoteId: QuoteId,
    requestedLimit: Amount('Limit asked for.'),
    ranked: z
      .array(
        z.object({
          rank: z
            .int()
            .min(1)
            .meta({ description: '1 for the lowest premium per unit of limit; ties by lower retention, then insurer name.' }),
          insurer: z.string().meta({ description: 'Insurer.' }),
          premium: Amount('Premium offered.'),
          limit: Amount('Limit offered.'),
          retention: Amount('Retention offered.'),
          premiumPerUnitOfLimit: z.number().meta({ description: 'premium / limit (6 decimals).' }),
          meetsRequestedLimit: z.boolean().meta({ description: 'The limit offered is at least the limit asked for.' }),
        }),
      )
      .meta({ description: 'Every offer, cheapest per unit of limit first.' }),
  })
  .meta({
    id: 'InsuranceQuoteComparison',
    examples: [
      {
        object: 'svc.insurance.quote_comparison',
        quoteId: EXAMPLE_QUOTE,
        requestedLimit: 5_000_000,
        ranked: [
          {
            rank: 1,
            ...OFFER_EXAMPLE,
            premiumPerUnitOfLimit: 0.018,
            meetsRequestedLimit: true,
          },
        ],
      },
    ],
  });

export const AcceptInsuranceOfferBody = z
  .strictObject({
    insurer: Insurer.meta({ description: 'The insurer whose offer is accepted (422 when it made none).' }),
    policyNumber: z.string().trim().min(1).max(100).optional().meta({ description: 'The policy number the insurer gave.' }),
  })
  .meta({ id: 'AcceptInsuranceOfferRequest', examples: [{ insurer: 'Example Mutual', policyNumber: 'CY-2027-0007' }] });
