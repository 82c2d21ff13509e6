import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the metadata rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

/**
 * The kinds of record a label may be attached to: the platform's records a tenant owns. Each is
 * checked to exist for the tenant before a label is attached (`tenant` is the tenant itself).
 */
export const METADATA_RESOURCE_TYPES = [
  'tenant',
  'api_key',
  'assessment',
  'evidence',
  'attestation',
  'obligation',
  'framework_activation',
  'webhook_subscription',
  'drift_finding',
] as const;

export const ResourceType = z.enum(METADATA_RESOURCE_TYPES).meta({
  description:
    'Kind of record the label is on: `tenant` (the tenant itself), `api_key`, `assessment`, `evidence`, `attestation`, `obligation`, `framework_activation`, `webhook_subscription` or `drift_finding`.',
  examples: ['assessment'],
});

export const ResourceId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
  .meta({ description: 'Id of the labelled record (`asm_...`, `evd_...`, or the `ten_` id for the tenant itself).' });

/** Letters, digits and `. _ - /`, starting with a letter or digit: `team`, `app.kubernetes.io/name`. */
export const METADATA_LABEL_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;
/** Printable text: letters, digits, punctuation, symbols and spaces (no control characters). */
export const LABEL_VALUE_PATTERN = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]+$/u;

export const LabelKey = z
  .string()
  .min(1)
  .max(63)
  .regex(METADATA_LABEL_KEY_PATTERN)
  .meta({ description: 'Label key: 1 to 63 letters, digits, `.`, `_`, `-` or `/`, starting with a letter or digit; case-sensitive.' });

export const LabelValue = z
  .string()
  .min(1)
  .max(200)
  .regex(LABEL_VALUE_PATTERN)
  .meta({ description: 'Label value: 1 to 200 printable characters (no control characters); case-sensitive.' });

export const LabelId = prefixedId('lbl', exampleId('lbl'));
