import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the litigation hold rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const HOLD_STATUSES = ['active', 'released'] as const;
export const CUSTODIAN_STATUSES = ['notified', 'acknowledged'] as const;

export const EXAMPLE_HOLD = exampleId('lhd');
export const HoldId = prefixedId('lhd', EXAMPLE_HOLD);
