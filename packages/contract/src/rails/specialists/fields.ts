import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the specialists rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const EXAMPLE_ENGAGEMENT = exampleId('meg');

export const EngagementId = prefixedId('meg', EXAMPLE_ENGAGEMENT);

// ---------------------------------------------------------------- firms

export const FIRM_EXAMPLE = {
  name: 'Northwind AI Assurance',
  description: 'EU AI Act and GDPR readiness for AI providers.',
  jurisdictions: ['EU', 'UK'],
};

// ---------------------------------------------------------------- consultants

export const CONSULTANT_STATUSES = ['unlisted', 'listed'] as const;
