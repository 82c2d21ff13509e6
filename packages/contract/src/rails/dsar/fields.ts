import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the dsar rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const DSAR_REGIMES = ['gdpr', 'uk-gdpr', 'ccpa', 'lgpd', 'dpdp'] as const;
export const DSAR_KINDS = [
  'access',
  'rectification',
  'erasure',
  'restriction',
  'portability',
  'objection',
  'opt-out',
  'limit-use',
  'grievance',
] as const;
export const DSAR_STATUSES = ['received', 'verified', 'in_progress', 'fulfilled', 'rejected'] as const;

export const EXAMPLE_STORE = exampleId('dst');

export const StoreId = prefixedId('dst', EXAMPLE_STORE);

export const Regime = z.enum(DSAR_REGIMES).meta({
  description:
    'Regime the request is made under: `gdpr` (Art. 12(3): one month, +2 months), `uk-gdpr`, `ccpa` (CCPA/CPRA: 45 days, +45 days), `lgpd` (Art. 19: 15 days), `dpdp` (DPDP Rules 2025: 90 days).',
});
export const Kind = z.enum(DSAR_KINDS).meta({
  description:
    'What the subject asks for. Each regime grants its own kinds (the rules data lists them): GDPR and UK GDPR `access`, `rectification`, `erasure`, `restriction`, `portability`, `objection`; CCPA `access`, `erasure`, `rectification`, `portability`, `opt-out`, `limit-use`; LGPD `access`, `rectification`, `restriction`, `portability`, `erasure`, `objection`; DPDP `access`, `rectification`, `erasure`, `grievance`. Another kind is 422.',
});
export const Status = z.enum(DSAR_STATUSES).meta({
  description:
    '`received` (clock running, identity not verified), `verified`, `in_progress` (fulfillment items open), `fulfilled` (every item closed), `rejected` (with a reason).',
});
export const SUBJECT_TYPES = ['customer', 'employee', 'candidate', 'prospect', 'supplier-contact', 'user', 'other'] as const;
export const SubjectType = z.enum(SUBJECT_TYPES).meta({
  description: 'Kind of data subject: `customer`, `employee`, `candidate`, `prospect`, `supplier-contact`, `user` or `other`.',
});

// ---------------------------------------------------------------- fulfillment

export const ITEM_STATUSES = ['pending', 'done', 'not_found', 'withheld'] as const;
export const ItemStatus = z.enum(ITEM_STATUSES).meta({
  description:
    '`pending` until closed as `done` (handled: data found and acted on), `not_found` (no data of the subject) or `withheld` (a ground to withhold).',
});
