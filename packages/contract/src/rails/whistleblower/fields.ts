import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the whistleblower rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const EXAMPLE_REPORT = exampleId('wbr');

export const WHISTLEBLOWER_CATEGORIES = [
  'public_procurement',
  'financial_services',
  'product_safety',
  'transport_safety',
  'environment',
  'nuclear_safety',
  'food_feed_safety',
  'animal_health',
  'public_health',
  'consumer_protection',
  'privacy_data_protection',
  'network_information_security',
  'union_financial_interests',
  'internal_market',
  'ai_governance',
  'workplace_misconduct',
  'other',
] as const;

export const Category = z.enum(WHISTLEBLOWER_CATEGORIES).meta({
  description:
    'Area of the reported breach: the areas of Directive (EU) 2019/1937 Art. 2(1) (`public_procurement` ... `internal_market`), `ai_governance` (the tenant’s AI rules), `workplace_misconduct` or `other` (areas the Directive may not cover: triage decides `inScope`).',
});
export const WHISTLEBLOWER_REPORT_STATES = ['received', 'acknowledged', 'triaged', 'investigating', 'closed'] as const;
export const ReportStatus = z.enum(WHISTLEBLOWER_REPORT_STATES).meta({
  description:
    'Lifecycle: `received` -> `acknowledged` (acknowledge) -> `triaged` (triage) -> `investigating` (investigate) -> `closed` (close, with an outcome). Any other move is 409.',
});
export const ReportId = prefixedId('wbr', EXAMPLE_REPORT);
export const InvestigationId = prefixedId('wbi', exampleId('wbi'));

export const IntakeSlug = z
  .string()
  .min(3)
  .max(63)
  .regex(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/)
  .meta({ description: 'Public slug of the tenant’s intake: 3 to 63 lowercase letters, digits and hyphens.', examples: ['acme-speak-up'] });

// ---------------------------------------------------------------- investigations

export const INVESTIGATION_STATUSES = ['open', 'in_progress', 'concluded', 'discontinued'] as const;

// ---------------------------------------------------------------- protections

export const PROTECTION_STATUSES = ['active', 'lifted'] as const;
