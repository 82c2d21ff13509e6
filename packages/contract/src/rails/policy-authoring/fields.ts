import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the policy authoring rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const EXAMPLE_POLICY_ID = exampleId('pol');
export const PolicyId = prefixedId('pol', EXAMPLE_POLICY_ID);

export const POLICY_STATUSES = ['draft', 'in_approval', 'published', 'retired'] as const;
export const PolicyStatus = z.enum(POLICY_STATUSES).meta({
  description:
    '`draft` (versions may be added), `in_approval` (an approval chain is being walked), `published` (covers its controls; people attest it) or `retired` (covers nothing any more). Changes only through the publish, approve, reject, version and retire routes.',
});
