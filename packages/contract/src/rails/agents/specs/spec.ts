import type { z } from 'zod';

/**
 * One agent of the catalogue as the contract knows it: its slug, what it does, its group and its
 * input and output schemas. The agents rail turns every spec into a typed route
 * (`POST /v1/agents/{slug}/invoke`), its OpenAPI operation, its SDK method and its mock; the
 * server adds the rules and the code that decides.
 *
 * - `deterministic`: the agent applies rules to facts and the answer is the rules' consequence
 *   (a classification, a mapping, a clock, a draft assembled from records).
 * - `advisory`: the agent scores and ranks (priorities, recommendations, hot spots); the answer is
 *   a judgement a person weighs. Both kinds are replayable: same input, facts and rules give the
 *   same bytes.
 *
 * The output must not use the keys the decision envelope adds: `object`, `agent`, `decisionId`,
 * `dictionaryVersion`, `ruleSet`, `hash`, `createdAt`.
 */
export interface AgentSpec<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  readonly slug: string;
  readonly title: string;
  readonly purpose: string;
  readonly group: 'deterministic' | 'advisory';
  /** Why the agent is in its group, in one sentence. */
  readonly groupReason: string;
  /** Catalogue it comes from: the 14-agent list, the 31-agent list, or both. */
  readonly catalogues: readonly ('core14' | 'all31')[];
  /** The request body, with `.meta({ examples })`: the first example must be valid for a new tenant. */
  readonly input: I;
  /** The answer, with `.meta({ examples })`. */
  readonly output: O;
}

export function agentSpec<const I extends z.ZodObject, const O extends z.ZodObject>(s: AgentSpec<I, O>): AgentSpec<I, O> {
  return s;
}

export const RESERVED_OUTPUT_KEYS = ['object', 'agent', 'decisionId', 'dictionaryVersion', 'ruleSet', 'hash', 'createdAt'] as const;
