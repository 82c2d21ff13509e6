import type { AgentSpec } from '@svc/contract';
import type { z } from 'zod';
import type { Prisma } from '../db/client.ts';

/**
 * What an agent's `gather` step may read. `gather` is the only step that touches the database;
 * what it returns (the facts) is stored with the decision, so that `decide` can be re-run on it
 * later, byte for byte, whatever the tenant's records have become since.
 */
export interface AgentContext {
  /** The full client: scope every tenant read with `scopeToTenant(ctx.prisma, ctx.tenantId)`. */
  prisma: Prisma;
  tenantId: string;
  /**
   * When the agent was invoked. `decide` never reads a clock: an agent that needs "today" (a
   * deadline, a freshness window) puts `ctx.now.toISOString()` in its facts.
   */
  now: Date;
  /** The tenant's pinned dictionary bundle: `versions` maps a dictionary id to its pinned version. */
  pinned: { hash: string; versions: Record<string, string> };
  /** `<dictionary>@<pinned version>` (the latest version when the dictionary is not in the pin). */
  versionOf(dictionaryId: string): string;
}

/** The event-index row an event rule routed to the agent (`agent_dispatches`). */
export interface AgentEvent {
  id: string;
  kind: string;
  entity: string | null;
  action: string | null;
  attributes: Record<string, unknown>;
}

/**
 * An agent: its contract spec plus its rule set and its two steps. Facts and output are plain
 * JSON (no Date, no undefined inside arrays, no Map); arrays in the facts are in a stable order
 * (sort by id) so that the same records give the same bytes.
 */
export interface AgentDef<S extends AgentSpec = AgentSpec, F = unknown> {
  spec: S;
  /** The rules as data: id, semver and the rules themselves; the decision stores id, version and SHA-256. */
  ruleSet: { id: string; version: string; rules: unknown };
  /** The `<dictionary>@<version>` the decision names: the dictionary its rules and facts mainly come from. */
  dictionaryVersion(ctx: AgentContext, input: z.infer<S['input']>): string;
  /** Reads the tenant's records and the dictionary content the decision needs. Throws ApiError for a missing record (404) or an input the data refuses (422). */
  gather(ctx: AgentContext, input: z.infer<S['input']>): Promise<F>;
  /** Pure: the same input, facts and rules give the same output. */
  // biome-ignore lint/suspicious/noExplicitAny: each agent types its own rules; the runtime passes them through untouched
  decide(input: z.infer<S['input']>, facts: F, rules: any): z.infer<S['output']>;
  /** The input for an event an event rule routed to this agent; null when the event gives the agent nothing to do. */
  fromEvent?(event: AgentEvent): z.infer<S['input']> | null;
}

/** Declares an agent with its types checked against its spec. */
export function defineAgent<S extends AgentSpec, F>(def: AgentDef<S, F>): AgentDef<S, F> {
  return def;
}

/** An agent of any input and facts: the type of the lists the registry holds. */
// biome-ignore lint/suspicious/noExplicitAny: one list holds agents of every input and fact type
export type AnyAgentDef = AgentDef<any, any>;
