import { z } from 'zod';
import { get, policyOf } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery, Timestamp } from '../../shared/common.ts';
import {
  ASSESSMENT_STATUSES,
  CalendarDate,
  CONTRACT_STATUSES,
  ContractId,
  EXAMPLE_CONTRACT_REQUEST,
  EXAMPLE_DOMAIN_SCORES,
  EXAMPLE_OCCURRED_AT,
  SEVERITIES,
} from './fields.ts';
import {
  CreateVendorAssessmentBody,
  CreateVendorBody,
  CreateVendorContractBody,
  CreateVendorMonitoringEventBody,
  Vendor,
  VendorAssessment,
  VendorContract,
  VendorContractExpiring,
  VendorContractStateAt,
  VendorCriticality,
  VendorId,
  VendorMonitoringEvent,
  VendorRiskChange,
  VendorScorecard,
  VendorStatus,
} from './schemas.ts';

/** The vendor risk rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- vendors

export const vendorRiskVendors = resource({
  rail: 'vendor_risk',
  path: 'vendors',
  name: 'vendor',
  label: { one: 'vendor', many: 'vendors' },
  idPrefix: 'vnd',
  record: Vendor,
  statusField: 'status',
  filters: {
    status: VendorStatus.optional().meta({ description: 'Only vendors in this status.' }),
    criticality: VendorCriticality.optional().meta({ description: 'Only vendors of this criticality.' }),
  },
  create: {
    body: CreateVendorBody,
    action: 'vendor.added',
    fixture: { name: 'Acme Cloud {{unique}}', criticality: 'high', services: ['Managed Kubernetes'], dataAccess: ['personal'] },
    summary: 'Add a vendor',
    description:
      'Adds a third party of the tenant, `active`, with its risk score computed at once (no assessment yet: the assessment part is 100). A name already used by a vendor of the tenant (without case) is 409.',
    eventSummary: 'A vendor was added.',
  },
  transitions: {
    offboard: {
      from: ['active'],
      to: 'offboarded',
      action: 'vendor.offboarded',
      summary: 'Offboard a vendor',
      description:
        'Ends the relationship. Refused with 409 while the vendor has a contract that is neither terminated nor expired (terminate it first).',
    },
  },
});

// ---------------------------------------------------------------- assessments

const vendorSetup = [
  {
    method: 'POST' as const,
    path: '/v1/vendor-risk/vendors',
    body: { name: 'Setup vendor {{unique}}', criticality: 'medium' },
    as: 'vendor',
  },
];

export const vendorRiskAssessments = resource({
  rail: 'vendor_risk',
  path: 'assessments',
  name: 'vendor_assessment',
  label: { one: 'assessment', many: 'assessments' },
  idPrefix: 'vas',
  record: VendorAssessment,
  statusField: 'status',
  filters: {
    vendorId: VendorId.optional().meta({ description: 'Only assessments of this vendor.' }),
    status: z.enum(ASSESSMENT_STATUSES).optional().meta({ description: 'Only assessments in this status.' }),
  },
  setup: vendorSetup,
  create: {
    body: CreateVendorAssessmentBody,
    action: 'vendor.assessment_started',
    fixture: { vendorId: '{{vendor.id}}', title: 'Annual review {{unique}}', domainScores: EXAMPLE_DOMAIN_SCORES },
    summary: 'Start an assessment of a vendor',
    description:
      'Records an assessment `in_progress` with its domain scores (0 to 100) given directly or computed from questionnaire answers (yes 100, partial 50, no 0, not applicable left out); one that scores no domain is 422 naming `domainScores`. It counts in the scorecard once completed. An unknown vendor is 404, an offboarded one 409.',
    eventSummary: 'An assessment of a vendor was started.',
  },
  transitions: {
    complete: {
      from: ['in_progress'],
      to: 'completed',
      action: 'vendor.assessed',
      summary: 'Complete an assessment',
      description:
        'Completes the assessment and recomputes its vendor’s risk score (its domains now count as the latest); when the score moves, `vendor.risk_changed` is emitted too.',
    },
  },
});

// ---------------------------------------------------------------- contracts

export const vendorRiskContracts = resource({
  rail: 'vendor_risk',
  path: 'contracts',
  name: 'vendor_contract',
  label: { one: 'contract', many: 'contracts' },
  idPrefix: 'vct',
  record: VendorContract,
  statusField: 'status',
  filters: {
    vendorId: VendorId.optional().meta({ description: 'Only contracts of this vendor.' }),
    status: z.enum(CONTRACT_STATUSES).optional().meta({ description: 'Only contracts in this status.' }),
  },
  setup: vendorSetup,
  create: {
    body: CreateVendorContractBody,
    action: 'vendor.contract_added',
    fixture: { ...EXAMPLE_CONTRACT_REQUEST, vendorId: '{{vendor.id}}', title: 'MSA {{unique}}' },
    summary: 'Add a contract with a vendor',
    description:
      'Records a contract `in_force` with its term and renewal terms; its `state` is derived at today’s date (and at any date through `GET /contracts/{id}/state?at=`). The vendor’s risk score is recomputed.',
    eventSummary: 'A contract with a vendor was added.',
  },
  transitions: {
    renew: {
      from: ['in_force'],
      to: 'in_force',
      action: 'vendor.contract_renewed',
      summary: 'Renew a contract',
      description:
        'Extends the contract’s end as known today (`currentEndDate`) by one renewal term: the new term starts the day after that end and lasts `renewalTermMonths` calendar months (a day the target month lacks is its last day), ending the day before. Recorded in `renewals`; the vendor’s risk score is recomputed.',
    },
    terminate: {
      from: ['in_force'],
      to: 'terminated',
      action: 'vendor.contract_terminated',
      summary: 'Terminate a contract',
      description: 'Ends the contract today (final); the vendor’s risk score is recomputed.',
    },
  },
});

// ---------------------------------------------------------------- monitoring

export const vendorRiskMonitoring = resource({
  rail: 'vendor_risk',
  path: 'monitoring',
  name: 'vendor_monitoring_event',
  label: { one: 'monitoring event', many: 'monitoring events' },
  idPrefix: 'vmo',
  record: VendorMonitoringEvent,
  filters: {
    vendorId: VendorId.optional().meta({ description: 'Only events of this vendor.' }),
    severity: z.enum(SEVERITIES).optional().meta({ description: 'Only events of this severity.' }),
  },
  setup: vendorSetup,
  create: {
    body: CreateVendorMonitoringEventBody,
    action: 'vendor.monitoring_recorded',
    fixture: {
      vendorId: '{{vendor.id}}',
      type: 'breach_news',
      severity: 'high',
      title: 'Exposure {{unique}}',
      occurredAt: EXAMPLE_OCCURRED_AT,
    },
    summary: 'Record a monitoring event',
    description:
      'Records what was observed about a vendor; the vendor’s risk score is recomputed (it counts, decaying with age, in the scorecard).',
    eventSummary: 'A monitoring event was recorded for a vendor.',
  },
});

// ---------------------------------------------------------------- router

const { read } = policyOf('vendor_risk');
const AtQuery = Timestamp.optional().meta({ description: 'The moment to compute for (ISO 8601 UTC); now when absent.' });

export const vendorRiskRouter = railRouter('vendor_risk', {
  vendors: vendorRiskVendors.routes,
  assessments: vendorRiskAssessments.routes,
  contracts: {
    ...vendorRiskContracts.routes,
    state: get(
      '/contracts/:id/state',
      {
        pathParams: z.object({ id: ContractId }),
        query: z.object({
          at: CalendarDate.optional().meta({ description: 'The date to derive the state for (`YYYY-MM-DD`); today (UTC) when absent.' }),
        }),
      },
      VendorContractStateAt,
      read,
    ).doc(
      'State of a contract at a date',
      'Derives the state of the contract at `at`: the term it falls in and the contract’s end as known that day (manual renewals made on or before it, automatic roll-overs), the notice window and the days to the end. Needs `vendor_risk:read`; another tenant’s contract is 404.',
    ),
  },
  monitoring: vendorRiskMonitoring.routes,
  scorecards: {
    list: get(
      '/scorecards',
      {
        query: PaginationQuery.extend({
          at: AtQuery,
          sort: z
            .enum(['score_desc', 'score_asc'])
            .default('score_desc')
            .meta({ description: '`score_desc` (riskiest first, default) or `score_asc`; ties by vendor id, newest first.' }),
          status: VendorStatus.optional().meta({ description: 'Only vendors in this status.' }),
        }),
      },
      listOf(VendorScorecard),
      read,
    ).doc(
      'Scorecards of all vendors, sorted by score',
      'Computes the scorecard of every vendor of the tenant at `at` from its completed assessments, contracts and monitoring events, sorted by score, as `{ data, cursor }` (`limit` 1 to 200, default 50). Needs `vendor_risk:read`.',
    ),
    get: get(
      '/scorecards/:vendorId',
      { pathParams: z.object({ vendorId: VendorId }), query: z.object({ at: AtQuery }) },
      VendorScorecard,
      read,
    ).doc(
      'Scorecard of a vendor',
      'The vendor’s risk score at `at` with every part: the domains (latest completed assessment each), the contracts with their state and penalty, and the monitoring events with their age, decay and penalty. Needs `vendor_risk:read`; another tenant’s vendor is 404.',
    ),
  },
});

export const vendorRiskEvents: ReturnType<typeof eventType>[] = [
  ...vendorRiskVendors.events,
  ...vendorRiskAssessments.events,
  ...vendorRiskContracts.events,
  ...vendorRiskMonitoring.events,
  eventType('vendor.risk_changed', 'A vendor’s risk score moved; `from` and `to` are the scores before and after.', VendorRiskChange),
  eventType(
    'vendor.contract_expiring',
    'A contract of an active vendor entered its notice window; found by the deadline sweep, once per contract and end date.',
    VendorContractExpiring,
  ),
];
