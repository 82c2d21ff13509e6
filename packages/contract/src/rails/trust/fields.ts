import { z } from 'zod';

/**
 * What the trust rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

/** A tenant's public slug: lowercase letters, digits and hyphens. */
export const Slug = z
  .string()
  .min(3)
  .max(63)
  .regex(/^[a-z0-9][a-z0-9-]*[a-z0-9]$/)
  .meta({ description: 'Public slug of the trust page: 3 to 63 lowercase letters, digits and hyphens.', examples: ['acme-ai'] });

// ---------------------------------------------------------------- NDA vault

export const NdaRequestStatus = z.enum(['pending', 'accepted', 'revoked']);
