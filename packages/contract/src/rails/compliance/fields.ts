import { z } from 'zod';

/**
 * What the compliance rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

/** The AI system the examples concern. */
export const SYSTEM_EXAMPLE = 'sys_credit_scoring_v2';

export const SystemId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
  .meta({ description: 'Identifier of the AI system the record concerns.', examples: [SYSTEM_EXAMPLE] });

export const STATUS = 'Current state of the record; changes only through the transition routes.';
export const SYSTEM_ID = 'Identifier of the AI system the record concerns, as the tenant names it.';

/** `draft` until the first answer, `in_progress` while answered (and after a return), `in_review` once submitted, `approved` (frozen). */
export const ASSESSMENT_STATUSES = ['draft', 'in_progress', 'in_review', 'approved'] as const;
export const OBLIGATION_STATUSES = ['open', 'in_progress', 'met', 'not_applicable'] as const;
export const SUBJECT_TYPES = ['control', 'assessment'] as const;
