import { z } from 'zod';

/**
 * What the taxonomy rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const FRAMEWORK_KINDS = ['regulation', 'standard', 'framework'] as const;
export const JURISDICTION_LEVELS = ['global', 'supranational', 'country', 'subdivision'] as const;

export const Code = z
  .string()
  .regex(/^[a-z][a-z0-9-]{1,31}$/)
  .meta({ description: 'A jurisdiction code (`eu`, `de`, `us-ca`).', examples: ['de'] });
