import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the red team rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const RED_TEAM_CATEGORIES = [
  'prompt_injection',
  'jailbreak',
  'data_exfiltration',
  'harmful_content',
  'bias',
  'privacy_leakage',
  'hallucination',
  'over_reliance',
  'model_extraction',
] as const;
export const RED_TEAM_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;

export const RUN_STATUSES = ['queued', 'running', 'completed', 'failed', 'canceled'] as const;
export const OUTCOMES = ['passed', 'failed', 'error'] as const;

export const Category = z.enum(RED_TEAM_CATEGORIES).meta({
  description:
    'Probe category: `prompt_injection`, `jailbreak`, `data_exfiltration`, `harmful_content`, `bias`, `privacy_leakage`, `hallucination`, `over_reliance`, `model_extraction`.',
});
export const Severity = z.enum(RED_TEAM_SEVERITIES).meta({
  description: 'Severity of a failure: `low`, `medium`, `high`, `critical` (weights 1, 2, 3, 4 in the score).',
});
export const TARGET_ID = exampleId('rtt');
export const RUN_ID = exampleId('rtn');
export const TargetId = prefixedId('rtt', TARGET_ID);
export const RunId = prefixedId('rtn', RUN_ID);
export const ProbeId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z]{2,4}-\d{3}$/)
  .meta({ description: 'Id of a probe of the corpus (`pi-001`).', examples: ['pi-001'] });
