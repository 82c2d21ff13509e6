import { createHash } from 'node:crypto';
import { canonicalJson } from '@svc/contract';
import { agents as classifier } from './defs/classifier.ts';
import { agents as groupA } from './defs/compliance-authoring.ts';
import { agents as groupB } from './defs/data-risk-search.ts';
import { agents as reporting } from './defs/reporting.ts';
import type { AnyAgentDef } from './types.ts';

/**
 * Every agent the service runs, by slug: the contract's spec with its rules and code. The agents
 * test checks that each slug of the contract's catalogue has exactly one definition here.
 */
const DEFS: readonly AnyAgentDef[] = [...classifier, ...groupA, ...groupB, ...reporting];
const BY_SLUG = new Map<string, AnyAgentDef>();
for (const d of DEFS) {
  if (BY_SLUG.has(d.spec.slug)) throw new Error(`Agent ${d.spec.slug} is defined twice.`);
  BY_SLUG.set(d.spec.slug, d);
}

export function agentDef(slug: string): AnyAgentDef | undefined {
  return BY_SLUG.get(slug);
}

export function agentDefs(): readonly AnyAgentDef[] {
  return DEFS;
}

/** `sha256:<hex>` of canonical JSON. */
export function sha256Canonical(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}

const ruleSetHashes = new WeakMap<object, string>();
/** The rule set a decision names: id, version and the hash of the rules' canonical JSON. */
export function ruleSetOf(def: AnyAgentDef): { id: string; version: string; hash: string } {
  let hash = ruleSetHashes.get(def);
  if (!hash) {
    hash = sha256Canonical(def.ruleSet.rules);
    ruleSetHashes.set(def, hash);
  }
  return { id: def.ruleSet.id, version: def.ruleSet.version, hash };
}
