import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the agents rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const EXAMPLE_DECISION = exampleId('dec');
export const DecisionId = prefixedId('dec', EXAMPLE_DECISION);
export const Slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/)
  .meta({ description: 'Slug of an agent (`classifier`).', examples: ['classifier'] });

export const CATALOGUES = ['core14', 'all31'] as const;
export const DECISION_SOURCES = ['api', 'event'] as const;

/** The classifier input of the examples: an AI system that ranks job applicants. */
export const EXAMPLE_REQUEST = { purpose: 'Ranks job applicants from their CVs.', affectedPersons: ['job applicants'] };

export const Group = z.enum(['deterministic', 'advisory']).meta({
  description:
    '`deterministic`: applies rules to facts, the answer is the rules’ consequence; `advisory`: scores and ranks, the answer is a judgement a person weighs. Both are replayable.',
});
