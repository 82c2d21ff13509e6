import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the insurance rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

/** Lines of insurance. */
export const INSURANCE_LINES = ['cyber', 'tech_eo', 'd_and_o', 'crime', 'ai_liability', 'general_liability'] as const;

export const EXAMPLE_POLICY = exampleId('inp');
export const EXAMPLE_QUOTE = exampleId('iqt');
export const PolicyId = prefixedId('inp', EXAMPLE_POLICY);
export const QuoteId = prefixedId('iqt', EXAMPLE_QUOTE);

export const Line = z.enum(INSURANCE_LINES).meta({
  description:
    'Line of insurance: `cyber`, `tech_eo` (technology errors and omissions), `d_and_o` (directors and officers), `crime`, `ai_liability`, `general_liability`.',
});

// ---------------------------------------------------------------- policies

/** The period of the example policy: the calendar year 2026. */
export const POLICY_PERIOD_EXAMPLE = { periodStart: '2026-01-01T00:00:00.000Z', periodEnd: '2027-01-01T00:00:00.000Z' };
