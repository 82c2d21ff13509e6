import { z } from 'zod';

/**
 * What the marketplace rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const FIRM_NAME = 'Northwind AI Assurance';

export const LISTING_STATUSES = ['draft', 'published', 'withdrawn'] as const;

// ---------------------------------------------------------------- engagements

export const EngagementStatus = z
  .enum(['active', 'ended', 'revoked'])
  .meta({ description: '`active`: the firm reads the client’s posture and open findings; `ended` or `revoked`: it no longer does.' });
