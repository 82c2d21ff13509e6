import { z } from 'zod';
import { ControlRef, prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the stakeholders rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const EXAMPLE_ROLE = exampleId('rol');

export const RoleId = prefixedId('rol', EXAMPLE_ROLE);

/** Id of an AI system of the tenant, as the other rails name it (`sys_credit_scoring_v2`). */
export const SystemRef = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
  .meta({ description: 'Id of an AI system of the tenant (`sys_credit_scoring_v2`).', examples: ['sys_credit_scoring_v2'] });

/** Id of a control of a framework the tenant has activated. */
export const ControlId = ControlRef.meta({
  description: 'Id of a control of a framework the tenant has activated (`AIA-RMS-01`).',
  examples: ['AIA-RMS-01'],
});
