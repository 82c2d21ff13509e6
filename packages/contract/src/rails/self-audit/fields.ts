import { ControlRef, prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the self audit rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const ControlId = ControlRef.meta({ description: 'Id of a control of a framework the tenant has activated (`AIA-RMS-01`).' });

export const FINDING_ID = exampleId('fnd');
export const EVIDENCE_ID = exampleId('evd');
export const FindingId = prefixedId('fnd', FINDING_ID);
export const EvidenceId = prefixedId('evd', EVIDENCE_ID);

export const PLAN_EXAMPLE = 'Review the risk register with the model owners and record the review.';
export const DUE_DATE_EXAMPLE = '2026-12-15T00:00:00.000Z';
export const NOTE_EXAMPLE = 'Minutes of the review meeting.';
