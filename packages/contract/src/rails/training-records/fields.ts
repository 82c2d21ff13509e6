import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the training records rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const MODULE_ID = exampleId('tmd');
export const ROLE_ID = exampleId('rol');
export const RECORD_ID = exampleId('trc');

export const ModuleId = prefixedId('tmd', MODULE_ID);
export const RoleId = prefixedId('rol', ROLE_ID);
export const RecordId = prefixedId('trc', RECORD_ID);

export const VERIFICATION_CODE = '5c1f3c6e0d4a2a1f7f5b1a0e2f9c8d7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d';

export const FrameworkId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}$/)
  .meta({ description: 'Id of a shipped framework dictionary (`eu-ai-act`).', examples: ['eu-ai-act'] });
