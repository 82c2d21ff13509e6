import { z } from 'zod';
import { exampleId } from '../../shared/records.ts';

/**
 * What the workspace rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const EXAMPLE_WORKSPACE_ID = exampleId('wks');

/** A principal named in a path or a member list: its `wpr_` id, or its subject (an email or a `key_` id). */
export const PrincipalRef = z
  .string()
  .min(1)
  .max(254)
  .regex(/^[A-Za-z0-9._%+@-]+$/);
