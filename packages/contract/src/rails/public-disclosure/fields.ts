import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the public disclosure rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const EXAMPLE_SYSTEM = 'sys_credit_scoring_v2';

export const SystemId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
  .meta({
    description: 'Identifier of the AI system, as the tenant names it in its assessments and evidence (`systemId`).',
    examples: [EXAMPLE_SYSTEM],
  });
export const DocumentId = prefixedId('pdd', exampleId('pdd'));

// ---------------------------------------------------------------- transparency notices

export const NOTICE_STATUSES = ['draft', 'published', 'withdrawn'] as const;
