import { z } from 'zod';

/**
 * What the notifications rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

// ---------------------------------------------------------------- subscriptions

export const SUBSCRIPTION_STATUSES = ['active', 'paused', 'canceled'] as const;

// ---------------------------------------------------------------- channels

export const ChannelStatus = z.enum(['active', 'disabled']).meta({ description: 'Only `active` channels receive messages.' });
