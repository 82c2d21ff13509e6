import { z } from 'zod';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import {
  ASSESSMENT_STATUSES,
  CalendarDate,
  CONTRACT_STATUSES,
  ContractId,
  EXAMPLE_CONTRACT,
  EXAMPLE_CONTRACT_REQUEST,
  EXAMPLE_DOMAIN_SCORES,
  EXAMPLE_OCCURRED_AT,
  EXAMPLE_VENDOR,
  SEVERITIES,
} from './fields.ts';

/** The vendor risk rail's records, request bodies and their examples (index.ts describes the rail). */

/** The `object` field of a vendor_risk record; its description names `svc.vendor_risk.vendor` as the example. */
const vendorRiskObject = <const T extends string>(name: T) => objectField(name, 'svc.vendor_risk.vendor');
/** `createdBy`, `createdAt` and `updatedAt` of a record that changes after its creation. */
const recordStamps = () => stamps('When the record last changed: ISO 8601 UTC timestamp with milliseconds.');

const EXAMPLE_ASSESSMENT = exampleId('vas');
const EXAMPLE_EVENT = exampleId('vmo');

export const VendorId = prefixedId('vnd', EXAMPLE_VENDOR);
const vendorRef = (description: string) => VendorId.meta({ description, examples: [EXAMPLE_VENDOR] });

export const VENDOR_CRITICALITIES = ['low', 'medium', 'high', 'critical'] as const;
export const VendorCriticality = z
  .enum(VENDOR_CRITICALITIES)
  .meta({ description: 'How much the tenant depends on the vendor: `low`, `medium`, `high` or `critical`.' });

export const VENDOR_DATA_ACCESS = ['personal', 'special_category', 'financial', 'health', 'confidential', 'credentials'] as const;
export const VendorDataAccess = z.enum(VENDOR_DATA_ACCESS).meta({
  description:
    'A category of the tenant’s data the vendor can reach: `personal`, `special_category` (GDPR Art. 9), `financial`, `health`, `confidential` (business secrets) or `credentials`.',
});

export const VendorStatus = z
  .enum(['active', 'offboarded'])
  .meta({ description: '`active` until `offboard`; an offboarded vendor takes no new assessment, contract or monitoring event.' });

export const VENDOR_DOMAINS = ['security', 'privacy', 'resilience', 'compliance'] as const;
export const VendorDomain = z
  .enum(VENDOR_DOMAINS)
  .meta({ description: 'Assessment domain: `security`, `privacy`, `resilience` or `compliance`.' });

export const VendorRiskRating = z
  .enum(['low', 'medium', 'high', 'critical'])
  .meta({ description: 'Band of a risk score: `low` below 25, `medium` 25 to below 50, `high` 50 to below 75, `critical` 75 and above.' });

/** The band of a risk score, shared by the server and the documentation. */
export function vendorRiskRatingOf(score: number): 'low' | 'medium' | 'high' | 'critical' {
  if (score >= 75) return 'critical';
  if (score >= 50) return 'high';
  if (score >= 25) return 'medium';
  return 'low';
}

const Name = z.string().trim().min(1).max(200);
const Score100 = z.number().min(0).max(100);

// ---------------------------------------------------------------- vendors

const EXAMPLE_VENDOR_REQUEST = {
  name: 'Acme Cloud Hosting',
  criticality: 'high',
  services: ['Managed Kubernetes', 'Object storage'],
  dataAccess: ['personal', 'confidential'],
};

export const VendorOrigin = z
  .object({
    kind: z.literal('procurement').meta({ description: 'Where the vendor came from: `procurement` (an onboarded award).' }),
    rfpId: z.string().meta({ description: 'The RFP the supplier won (`rfp_`).' }),
    awardId: z.string().meta({ description: 'The award (`awd_`).' }),
    onboardingId: z.string().meta({ description: 'The onboarding that created the vendor (`sob_`).' }),
  })
  .meta({ id: 'VendorOrigin', description: 'How the vendor was added when not directly: the procurement onboarding that created it.' });

export const Vendor = z
  .object({
    object: vendorRiskObject('svc.vendor_risk.vendor'),
    id: VendorId,
    name: z.string().meta({ description: 'Name of the vendor, unique within the tenant (compared without case).' }),
    criticality: VendorCriticality,
    services: z.array(z.string()).meta({ description: 'Services the vendor provides to the tenant.' }),
    dataAccess: z.array(VendorDataAccess).meta({ description: 'Categories of the tenant’s data the vendor can reach; empty when none.' }),
    status: VendorStatus,
    riskScore: Score100.meta({
      description:
        'Risk score (0 to 100, higher is riskier) at its latest recomputation (`riskScoredAt`): on creation, when an assessment completes, a monitoring event is recorded or a contract is added, renewed or terminated. The live value, with its parts, is at `/v1/vendor-risk/scorecards/{vendorId}`.',
    }),
    riskRating: VendorRiskRating,
    riskScoredAt: Timestamp.meta({ description: 'When `riskScore` was computed.' }),
    origin: VendorOrigin.nullable().meta({
      description: 'The procurement onboarding that created the vendor; null for a vendor added directly.',
    }),
    offboardedAt: Timestamp.nullable().meta({ description: 'When the vendor was offboarded; null while active.' }),
    ...recordStamps(),
  })
  .meta({
    id: 'Vendor',
    examples: [
      {
        object: 'svc.vendor_risk.vendor',
        id: EXAMPLE_VENDOR,
        ...EXAMPLE_VENDOR_REQUEST,
        status: 'active',
        riskScore: 100,
        riskRating: 'critical',
        riskScoredAt: EXAMPLE_AT,
        origin: null,
        offboardedAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateVendorBody = z
  .strictObject({
    name: Name.meta({ description: 'Name of the vendor, 1 to 200 characters; unique within the tenant without case (409 otherwise).' }),
    criticality: VendorCriticality,
    services: z
      .array(z.string().trim().min(1).max(200))
      .max(50)
      .optional()
      .meta({ description: 'Services the vendor provides (none when absent), each up to 200 characters.' }),
    dataAccess: z
      .array(VendorDataAccess)
      .max(VENDOR_DATA_ACCESS.length)
      .optional()
      .meta({ description: 'Categories of data the vendor can reach (none when absent); repeats are kept once.' }),
  })
  .meta({ id: 'CreateVendorRequest', examples: [EXAMPLE_VENDOR_REQUEST] });

// ---------------------------------------------------------------- assessments

export const VendorAnswer = z
  .strictObject({
    domain: VendorDomain,
    question: z.string().trim().min(1).max(500).meta({ description: 'The question, up to 500 characters.' }),
    answer: z.enum(['yes', 'partial', 'no', 'not_applicable']).meta({
      description: 'The vendor’s answer: `yes` scores 100, `partial` 50, `no` 0; `not_applicable` is left out of the domain’s mean.',
    }),
  })
  .meta({ id: 'VendorQuestionnaireAnswer', description: 'One answer of a questionnaire.' });

export const VendorDomainScores = z
  .strictObject({
    security: Score100.optional().meta({ description: 'Security score, 0 (no assurance) to 100.' }),
    privacy: Score100.optional().meta({ description: 'Privacy score, 0 to 100.' }),
    resilience: Score100.optional().meta({ description: 'Resilience (continuity, recovery) score, 0 to 100.' }),
    compliance: Score100.optional().meta({ description: 'Regulatory compliance score, 0 to 100.' }),
  })
  .meta({
    id: 'VendorDomainScores',
    description: 'Scores per domain, 0 to 100 (higher is better assured); absent domains are not assessed.',
  });

export const VendorAssessment = z
  .object({
    object: vendorRiskObject('svc.vendor_risk.vendor_assessment'),
    id: prefixedId('vas', EXAMPLE_ASSESSMENT),
    vendorId: vendorRef('The vendor assessed.'),
    title: z.string().meta({ description: 'Name of the assessment.' }),
    answers: z.array(VendorAnswer).meta({ description: 'Questionnaire answers given; empty when the domains were scored directly.' }),
    domainScores: VendorDomainScores.meta({
      description:
        'Score of each assessed domain: given directly, or the mean of its questionnaire answers (yes 100, partial 50, no 0), rounded to 2 decimals.',
    }),
    status: z.enum(ASSESSMENT_STATUSES).meta({
      description: '`in_progress` until `complete`; only completed assessments count in the vendor’s scorecard.',
    }),
    completedAt: Timestamp.nullable().meta({ description: 'When it was completed; null while in progress.' }),
    ...recordStamps(),
  })
  .meta({
    id: 'VendorAssessment',
    examples: [
      {
        object: 'svc.vendor_risk.vendor_assessment',
        id: EXAMPLE_ASSESSMENT,
        vendorId: EXAMPLE_VENDOR,
        title: 'Annual security review 2026',
        answers: [],
        domainScores: EXAMPLE_DOMAIN_SCORES,
        status: 'in_progress',
        completedAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateVendorAssessmentBody = z
  .strictObject({
    vendorId: vendorRef('The vendor to assess: an active vendor of the tenant (404 when unknown, 409 when offboarded).'),
    title: Name.meta({ description: 'Name of the assessment, 1 to 200 characters.' }),
    domainScores: VendorDomainScores.optional(),
    answers: z
      .array(VendorAnswer)
      .max(500)
      .optional()
      .meta({ description: 'Questionnaire answers; a domain is scored from its answers. A domain both scored and answered is 422.' }),
  })
  .meta({
    id: 'CreateVendorAssessmentRequest',
    examples: [{ vendorId: EXAMPLE_VENDOR, title: 'Annual security review 2026', domainScores: EXAMPLE_DOMAIN_SCORES }],
  });

// ---------------------------------------------------------------- contracts

export const VENDOR_CONTRACT_STATES = ['pending', 'active', 'expiring', 'renewed', 'expired', 'terminated'] as const;
export const VendorContractState = z.enum(VENDOR_CONTRACT_STATES).meta({
  description:
    'State at a date, derived: `pending` before `startDate`; `terminated` from the day it was terminated; `expired` after the current term’s end (never for an auto-renewing contract: its term rolls over); `expiring` within the notice window (`noticePeriodDays` before the current term’s end, up to the end); `renewed` in a term after a renewal (manual or automatic); `active` otherwise.',
});

export const VendorContractRenewal = z
  .object({
    renewedAt: Timestamp.meta({ description: 'When `renew` was called.' }),
    previousEndDate: CalendarDate.meta({ description: 'End of the term that was extended.' }),
    newEndDate: CalendarDate.meta({ description: 'End of the new term.' }),
  })
  .meta({ id: 'VendorContractRenewal', description: 'A manual renewal of a contract.' });

export const VendorContract = z
  .object({
    object: vendorRiskObject('svc.vendor_risk.vendor_contract'),
    id: ContractId,
    vendorId: vendorRef('The vendor contracted.'),
    title: z.string().meta({ description: 'Name of the contract.' }),
    startDate: CalendarDate.meta({ description: 'First day of the contract.' }),
    endDate: CalendarDate.meta({ description: 'Last day of the initial term, as agreed.' }),
    currentEndDate: CalendarDate.meta({
      description: 'Last day of the term running today: after the manual renewals and, for an auto-renewing contract, the automatic ones.',
    }),
    autoRenew: z.boolean().meta({ description: 'Whether the contract renews by itself at the end of each term unless notice is given.' }),
    renewalTermMonths: z.int().min(1).max(120).meta({ description: 'Length of each renewal term in calendar months.' }),
    noticePeriodDays: z
      .int()
      .min(0)
      .max(730)
      .meta({ description: 'Days before a term’s end by which notice must be given: the notice window.' }),
    noticeDeadline: CalendarDate.meta({ description: '`currentEndDate - noticePeriodDays`: the day the notice window opens.' }),
    value: z.number().min(0).meta({ description: 'Value of the contract in `currency`.' }),
    currency: z.string().meta({ description: 'ISO 4217 currency code (`EUR`).' }),
    status: z.enum(CONTRACT_STATUSES).meta({ description: '`in_force` until `terminate` (final).' }),
    state: VendorContractState,
    renewals: z.array(VendorContractRenewal).meta({ description: 'Manual renewals, oldest first.' }),
    terminatedAt: Timestamp.nullable().meta({ description: 'When it was terminated; null while in force.' }),
    ...recordStamps(),
  })
  .meta({
    id: 'VendorContract',
    examples: [
      {
        object: 'svc.vendor_risk.vendor_contract',
        id: EXAMPLE_CONTRACT,
        vendorId: EXAMPLE_VENDOR,
        title: 'Hosting master services agreement',
        startDate: '2026-01-01',
        endDate: '2026-12-31',
        currentEndDate: '2026-12-31',
        autoRenew: true,
        renewalTermMonths: 12,
        noticePeriodDays: 90,
        noticeDeadline: '2026-10-02',
        value: 120000,
        currency: 'EUR',
        status: 'in_force',
        state: 'expiring',
        renewals: [],
        terminatedAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateVendorContractBody = z
  .strictObject({
    vendorId: vendorRef('The vendor: an active vendor of the tenant (404 when unknown, 409 when offboarded).'),
    title: Name.meta({ description: 'Name of the contract, 1 to 200 characters.' }),
    startDate: CalendarDate.meta({ description: 'First day of the contract.' }),
    endDate: CalendarDate.meta({ description: 'Last day of the initial term; not before `startDate` (422).' }),
    autoRenew: z
      .boolean()
      .optional()
      .meta({ description: 'Renews by itself at each term’s end unless notice is given; false when absent.' }),
    renewalTermMonths: z
      .int()
      .min(1)
      .max(120)
      .optional()
      .meta({ description: 'Length of each renewal term in calendar months, 1 to 120; 12 when absent.' }),
    noticePeriodDays: z.int().min(0).max(730).optional().meta({ description: 'Notice period in days, 0 to 730; 30 when absent.' }),
    value: z.number().min(0).max(1e12).meta({ description: 'Value of the contract, 0 to 10^12.' }),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .meta({ description: 'ISO 4217 currency code, three capital letters (`EUR`).' }),
  })
  .meta({ id: 'CreateVendorContractRequest', examples: [EXAMPLE_CONTRACT_REQUEST] });

export const VendorContractStateAt = z
  .object({
    object: vendorRiskObject('svc.vendor_risk.contract_state'),
    contractId: ContractId,
    at: CalendarDate.meta({ description: 'The date the state is derived for.' }),
    state: VendorContractState,
    termStartDate: CalendarDate.meta({
      description:
        'First day of the term `at` falls in: the start date, or the day after the end a renewal (manual or automatic) extended.',
    }),
    contractEndDate: CalendarDate.meta({
      description:
        'Last day of the contract as known at `at`: the end of the latest manual renewal made on or before that day (else the agreed end), rolled over term by term for an auto-renewing contract until `at` falls in it.',
    }),
    noticeDeadline: CalendarDate.meta({ description: '`contractEndDate - noticePeriodDays`: the notice window opens on this day.' }),
    automaticRenewals: z.int().min(0).meta({ description: 'Terms rolled over automatically up to `at`.' }),
    manualRenewals: z.int().min(0).meta({ description: 'Manual renewals made on or before `at`.' }),
    daysToEnd: z.int().meta({ description: 'Days from `at` to `contractEndDate` (negative once expired).' }),
  })
  .meta({
    id: 'VendorContractStateAt',
    examples: [
      {
        object: 'svc.vendor_risk.contract_state',
        contractId: EXAMPLE_CONTRACT,
        at: '2027-03-01',
        state: 'renewed',
        termStartDate: '2027-01-01',
        contractEndDate: '2027-12-31',
        noticeDeadline: '2027-10-02',
        automaticRenewals: 1,
        manualRenewals: 0,
        daysToEnd: 305,
      },
    ],
  });

// ---------------------------------------------------------------- monitoring

export const VENDOR_MONITORING_TYPES = ['breach_news', 'certification_lapse', 'sanction_hit', 'incident'] as const;
export const VENDOR_SEVERITY_WEIGHTS = { low: 2, medium: 5, high: 10, critical: 20 } as const;
const EXAMPLE_EVENT_TITLE = 'Customer database exposed';
const EXAMPLE_EVENT_SOURCE = 'https://news.example.com/acme-breach';

export const VendorMonitoringEvent = z
  .object({
    object: vendorRiskObject('svc.vendor_risk.vendor_monitoring_event'),
    id: prefixedId('vmo', EXAMPLE_EVENT),
    vendorId: vendorRef('The vendor concerned.'),
    type: z.enum(VENDOR_MONITORING_TYPES).meta({
      description: 'What was observed: `breach_news`, `certification_lapse`, `sanction_hit` or `incident`.',
    }),
    severity: z.enum(SEVERITIES).meta({
      description: 'Severity; its weight in the scorecard is low 2, medium 5, high 10, critical 20, halved every 90 days of age.',
    }),
    title: z.string().meta({ description: 'What happened, in a line.' }),
    details: z.string().nullable().meta({ description: 'More detail; null when not given.' }),
    sourceUrl: z.string().nullable().meta({ description: 'Where it was reported; null when not given.' }),
    occurredAt: Timestamp.meta({ description: 'When it happened: the age in the scorecard counts from here.' }),
    ...created(),
  })
  .meta({
    id: 'VendorMonitoringEvent',
    examples: [
      {
        object: 'svc.vendor_risk.vendor_monitoring_event',
        id: EXAMPLE_EVENT,
        vendorId: EXAMPLE_VENDOR,
        type: 'breach_news',
        severity: 'high',
        title: EXAMPLE_EVENT_TITLE,
        details: null,
        sourceUrl: EXAMPLE_EVENT_SOURCE,
        occurredAt: EXAMPLE_OCCURRED_AT,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateVendorMonitoringEventBody = z
  .strictObject({
    vendorId: vendorRef('The vendor: an active vendor of the tenant (404 when unknown, 409 when offboarded).'),
    type: z.enum(VENDOR_MONITORING_TYPES).meta({ description: '`breach_news`, `certification_lapse`, `sanction_hit` or `incident`.' }),
    severity: z.enum(SEVERITIES).meta({ description: '`low`, `medium`, `high` or `critical`.' }),
    title: Name.meta({ description: 'What happened, 1 to 200 characters.' }),
    details: z.string().trim().min(1).max(4000).optional().meta({ description: 'More detail, up to 4,000 characters.' }),
    sourceUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional()
      .meta({ description: 'Where it was reported (http or https).' }),
    occurredAt: Timestamp.optional().meta({ description: 'When it happened, not in the future (422); now when absent.' }),
  })
  .meta({
    id: 'CreateVendorMonitoringEventRequest',
    examples: [
      {
        vendorId: EXAMPLE_VENDOR,
        type: 'breach_news',
        severity: 'high',
        title: EXAMPLE_EVENT_TITLE,
        sourceUrl: EXAMPLE_EVENT_SOURCE,
        occurredAt: EXAMPLE_OCCURRED_AT,
      },
    ],
  });

// ---------------------------------------------------------------- scorecards

const Part = (description: string) => z.number().min(0).max(100).meta({ description });

/** A part of the score made of penalties: its value and the items (contracts, events) it sums. */
const penaltyPart = <S extends z.ZodRawShape>(words: { part: string; items: string; whole: string }, item: S) =>
  z
    .object({
      part: Part(words.part),
      items: z.array(z.object(item)).meta({ description: words.items }),
    })
    .meta({ description: words.whole });

/** When the example assessment was completed: its domains then count in the scorecard. */
const EXAMPLE_COMPLETED_AT = '2026-11-22T09:00:00.000Z';

export const VendorScorecard = z
  .object({
    object: vendorRiskObject('svc.vendor_risk.scorecard'),
    vendorId: VendorId,
    name: z.string().meta({ description: 'Name of the vendor.' }),
    criticality: VendorCriticality,
    status: VendorStatus,
    at: Timestamp.meta({ description: 'The moment the score is computed for.' }),
    score: Part('Total risk score: the sum of the three parts, capped at 100 (2 decimals).'),
    rating: VendorRiskRating,
    assessment: z
      .object({
        part: Part('`100 - mean` of the four domain scores (a domain never scored counts as 0).'),
        meanDomainScore: z.number().meta({ description: 'Mean of the four domain scores used.' }),
        domains: z
          .array(
            z.object({
              domain: VendorDomain,
              score: z
                .number()
                .nullable()
                .meta({ description: 'Score of the latest completed assessment that scored it; null when none did.' }),
              assessmentId: z.string().nullable().meta({ description: 'That assessment; null when none.' }),
              completedAt: Timestamp.nullable().meta({ description: 'When it was completed; null when none.' }),
            }),
          )
          .meta({ description: 'The four domains in order: security, privacy, resilience, compliance.' }),
      })
      .meta({ description: 'The part from assessments completed up to `at`.' }),
    contracts: penaltyPart(
      {
        part: 'Sum of the contract penalties, at most 30.',
        items: 'Every contract of the vendor with its state at `at`.',
        whole: 'The part from contracts.',
      },
      {
        contractId: z.string().meta({ description: 'The contract.' }),
        title: z.string().meta({ description: 'Its title.' }),
        state: VendorContractState,
        penalty: z.number().meta({ description: '15 when expired, 5 when expiring, 0 otherwise.' }),
      },
    ),
    monitoring: penaltyPart(
      {
        part: 'Sum of the decayed event weights (2 decimals), counted up to 100.',
        items: 'Every event that occurred up to `at`, newest first.',
        whole: 'The part from monitoring events.',
      },
      {
        eventId: z.string().meta({ description: 'The monitoring event.' }),
        type: z.string().meta({ description: 'Its type.' }),
        severity: z.string().meta({ description: 'Its severity.' }),
        occurredAt: Timestamp.meta({ description: 'When it happened.' }),
        ageDays: z.number().meta({ description: 'Days from `occurredAt` to `at` (2 decimals).' }),
        weight: z.number().meta({ description: 'Weight of the severity: 2, 5, 10 or 20.' }),
        decay: z.number().meta({ description: '`0.5^(ageDays / 90)` (4 decimals).' }),
        penalty: z.number().meta({ description: '`weight x decay` (2 decimals).' }),
      },
    ),
  })
  .meta({
    id: 'VendorScorecard',
    examples: [
      {
        object: 'svc.vendor_risk.scorecard',
        vendorId: EXAMPLE_VENDOR,
        name: EXAMPLE_VENDOR_REQUEST.name,
        criticality: 'high',
        status: 'active',
        at: EXAMPLE_AT,
        score: 62.5,
        rating: 'high',
        assessment: {
          part: 65,
          meanDomainScore: 35,
          domains: [
            { domain: 'security', score: 80, assessmentId: EXAMPLE_ASSESSMENT, completedAt: EXAMPLE_COMPLETED_AT },
            { domain: 'privacy', score: 60, assessmentId: EXAMPLE_ASSESSMENT, completedAt: EXAMPLE_COMPLETED_AT },
            { domain: 'resilience', score: null, assessmentId: null, completedAt: null },
            { domain: 'compliance', score: null, assessmentId: null, completedAt: null },
          ],
        },
        contracts: { part: 0, items: [] },
        monitoring: { part: 0, items: [] },
      },
    ],
  });

export const VendorRiskChange = z
  .object({
    object: vendorRiskObject('svc.vendor_risk.risk_change'),
    vendorId: VendorId,
    name: z.string().meta({ description: 'Name of the vendor.' }),
    from: z.number().meta({ description: 'Risk score before.' }),
    to: z.number().meta({ description: 'Risk score after.' }),
    fromRating: VendorRiskRating,
    toRating: VendorRiskRating,
    cause: z.string().meta({ description: 'The audit action that moved it (`vendor.assessed`, `vendor.monitoring_recorded`, ...).' }),
    causeId: z.string().meta({ description: 'The record whose change moved it.' }),
    at: Timestamp.meta({ description: 'When it was recomputed.' }),
  })
  .meta({
    id: 'VendorRiskChange',
    examples: [
      {
        object: 'svc.vendor_risk.risk_change',
        vendorId: EXAMPLE_VENDOR,
        name: EXAMPLE_VENDOR_REQUEST.name,
        from: 100,
        to: 65,
        fromRating: 'critical',
        toRating: 'high',
        cause: 'vendor.assessed',
        causeId: EXAMPLE_ASSESSMENT,
        at: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- router

/** Event types the vendor_risk rail emits. */
/** Data of `vendor.contract_expiring`: a contract of an active vendor inside its notice window. */
export const VendorContractExpiring = z
  .object({
    id: VendorId.meta({ description: 'The vendor.' }),
    name: z.string().meta({ description: 'Name of the vendor.' }),
    riskScore: z.number().optional().meta({ description: 'The vendor’s stored risk score, when it has one.' }),
    contractId: ContractId.meta({ description: 'The contract.' }),
    title: z.string().meta({ description: 'Title of the contract.' }),
    expiresAt: Timestamp.meta({ description: 'Start of the day after the contract’s current end (ISO 8601 UTC).' }),
    endDate: z.string().meta({ description: 'Current end of the contract (after renewals), `YYYY-MM-DD`.' }),
    noticeDeadline: z.string().meta({ description: 'Last day to give notice, `YYYY-MM-DD`.' }),
    autoRenew: z.boolean().meta({ description: 'True when the contract renews by itself unless notice is given.' }),
  })
  .meta({
    id: 'VendorContractExpiring',
    description: 'A contract inside its notice window: emitted once per contract and end date by the deadline sweep.',
    examples: [
      {
        id: EXAMPLE_VENDOR,
        name: 'Acme Cloud',
        riskScore: 42.5,
        contractId: EXAMPLE_CONTRACT,
        title: 'Hosting agreement',
        expiresAt: '2027-01-01T00:00:00.000Z',
        endDate: '2026-12-31',
        noticeDeadline: '2026-12-01',
        autoRenew: true,
      },
    ],
  });
