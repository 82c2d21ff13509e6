import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the audit engine rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const AUDIT_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export const AUDIT_CHECKS = [
  'evidence_missing',
  'evidence_stale',
  'obligation_unmet',
  'attestation_missing',
  'attestation_expired',
  'requirement_not_met',
] as const;
export const AUDIT_RUN_STATUSES = ['running', 'completed', 'failed', 'attested'] as const;

export const ScheduleId = prefixedId('aes', exampleId('aes'));
export const RunId = prefixedId('aer', exampleId('aer'));
export const FindingId = prefixedId('aef', exampleId('aef'));

export const Severity = z.enum(AUDIT_SEVERITIES).meta({ description: 'Severity of a finding: `critical`, `high`, `medium` or `low`.' });
export const Check = z.enum(AUDIT_CHECKS).meta({
  description:
    'The failed check: `evidence_missing` (no evidence cites the control), `evidence_stale` (no evidence collected within the freshness window of its kind, or all of it expired), `obligation_unmet` (an obligation linked to the control applies and the control has no current evidence), `attestation_missing` or `attestation_expired` (a control that needs a current attestation has none, or only one older than the validity window), `requirement_not_met` (the latest gap analysis of the framework approved before the run assessed the control non-compliant, or partially compliant at a lower severity).',
});
export const FindingStatus = z.enum(['open', 'resolved']);
export const RunStatus = z.enum(AUDIT_RUN_STATUSES).meta({
  description:
    '`running` until the evaluation ends; `completed` with its findings; `failed` when it could not be evaluated; `attested` once closed by an attestation.',
});
