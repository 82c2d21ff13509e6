import { canonicalJson } from '@svc/contract';
import type { Prisma } from '../db/client.ts';
import { scopeToTenant } from '../db/tenant-scope.ts';
import { ApiError } from '../errors.ts';
import { detailsFrom } from '../http/validation.ts';
import { newId } from '../ids.ts';
import { type Actor, recordChange } from '../platform/ledger/changes.ts';
import { getBundleHash } from '../rails/taxonomy/service.ts';
import { agentDef, ruleSetOf, sha256Canonical } from './registry.ts';
import type { AgentContext, AnyAgentDef } from './types.ts';

/**
 * Invoking an agent and replaying its decisions.
 *
 * An invocation validates the body with the agent's input schema, reads the facts (`gather`),
 * decides (`decide`, pure), and records the decision: the input (request and facts), the
 * dictionary version, the rule set (id, version, hash) and the output, with one SHA-256 over the
 * canonical JSON of the four, in one transaction with its audit event and webhook.
 *
 * Replay re-runs `decide` on the stored request and facts with the rules of this version of the
 * service and compares hashes. Facts, request and output are stored in canonical form (keys sorted
 * at every level) and read back in the same form, so that code iterating over an object's keys sees
 * the same order on the first run and on every replay, whatever order the database returns.
 */

/** A value in canonical form: JSON only, object keys sorted at every level. */
export function canonical<T>(value: T): T {
  return JSON.parse(canonicalJson(value)) as T;
}

function notFoundAgent(slug: string): ApiError {
  return new ApiError('not_found', `Agent ${slug} is not in the catalogue; GET /v1/agents lists the 33 slugs.`);
}

async function contextFor(prisma: Prisma, who: Actor, now: Date): Promise<AgentContext> {
  const pin = await getBundleHash(prisma, who);
  const versions = pin.versions;
  const latest = pin.current.versions;
  return {
    prisma,
    tenantId: who.tenantId,
    now,
    pinned: { hash: pin.hash, versions },
    versionOf: (id) => `${id}@${versions[id] ?? latest[id] ?? 'unversioned'}`,
  };
}

export function parseInput(def: AnyAgentDef, body: unknown): unknown {
  const parsed = def.spec.input.safeParse(body ?? {});
  if (!parsed.success) {
    const details = detailsFrom(parsed.error, body ?? {});
    throw new ApiError(
      'validation_failed',
      `The input of ${def.spec.slug} does not match its schema.`,
      details.length ? details : [{ field: 'body', issue: 'invalid_value' }],
    );
  }
  return parsed.data;
}

export interface DecisionOptions {
  source: 'api' | 'event';
  eventId?: string;
}

export interface RecordedDecision {
  id: string;
  agent: string;
  output: Record<string, unknown>;
  dictionaryVersion: string;
  ruleSet: { id: string; version: string; hash: string };
  hash: string;
  createdAt: string;
}

/** Runs an agent for the tenant and records its decision. */
export async function invokeAgent(
  prisma: Prisma,
  who: Actor,
  slug: string,
  body: unknown,
  opts: DecisionOptions = { source: 'api' },
): Promise<RecordedDecision> {
  const def = agentDef(slug);
  if (!def) throw notFoundAgent(slug);
  const request = canonical(parseInput(def, body));
  const now = new Date();
  const ctx = await contextFor(prisma, who, now);
  const facts = canonical((await def.gather(ctx, request)) ?? null);
  const raw = def.decide(request, facts, def.ruleSet.rules);
  const checked = def.spec.output.safeParse(raw);
  if (!checked.success) {
    // A defect of the agent, never of the caller: said plainly, without the internals.
    throw new Error(`Agent ${slug} produced an output that does not match its schema: ${checked.error.message}`);
  }
  const output = canonical(raw) as Record<string, unknown>;
  const dictionaryVersion = def.dictionaryVersion(ctx, request);
  const ruleSet = ruleSetOf(def);
  const input = { request, facts };
  const hash = sha256Canonical({ input, dictionaryVersion, ruleSet, output });
  const id = newId('dec');
  const createdAt = now.toISOString();
  await prisma.$transaction(async (tx) => {
    await scopeToTenant(tx, who.tenantId).agentDecision.create({
      data: {
        id,
        tenantId: who.tenantId,
        agent: slug,
        input: input as object,
        dictionaryVersion,
        bundleHash: ctx.pinned.hash,
        ruleSetId: ruleSet.id,
        ruleSetVersion: ruleSet.version,
        ruleSetHash: ruleSet.hash,
        output: output as object,
        hash,
        source: opts.source,
        eventId: opts.eventId ?? null,
        createdBy: who.actor,
        createdAt: now,
      },
    });
    await recordChange(tx, {
      ...who,
      action: 'agent.decision_recorded',
      resourceType: 'svc.agents.decision',
      resourceId: id,
      data: { agent: slug, hash, dictionaryVersion, ruleSet, source: opts.source, eventId: opts.eventId ?? null },
      resource: { agent: slug, decisionId: id, dictionaryVersion, hash, source: opts.source },
    });
  });
  return { id, agent: slug, output, dictionaryVersion, ruleSet, hash, createdAt };
}

/** The invocation's answer: the output's fields beside the decision's. */
export function renderInvocation(d: RecordedDecision) {
  return {
    ...d.output,
    object: 'svc.agents.decision' as const,
    agent: d.agent,
    decisionId: d.id,
    dictionaryVersion: d.dictionaryVersion,
    ruleSet: d.ruleSet,
    hash: d.hash,
    createdAt: d.createdAt,
  };
}

interface DecisionRow {
  id: string;
  agent: string;
  input: unknown;
  dictionaryVersion: string;
  bundleHash: string;
  ruleSetId: string;
  ruleSetVersion: string;
  ruleSetHash: string;
  output: unknown;
  hash: string;
  source: string;
  eventId: string | null;
  createdBy: string;
  createdAt: Date;
}

export interface Replay {
  reproduced: boolean;
  intact: boolean;
  hash: string;
  ruleSetChanged: boolean;
  divergences: { path: string; stored: unknown; replayed: unknown }[];
  error: string | null;
}

/** Where two JSON values differ, as paths (at most `max`). */
function diff(a: unknown, b: unknown, path: string, out: Replay['divergences'], max = 50): void {
  if (out.length >= max) return;
  if (canonicalJson(a) === canonicalJson(b)) return;
  const bothArrays = Array.isArray(a) && Array.isArray(b);
  const bothObjects = !bothArrays && a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b);
  if (bothArrays) {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) diff(a[i], b[i], `${path}[${i}]`, out, max);
    return;
  }
  if (bothObjects) {
    const keys = [...new Set([...Object.keys(a as object), ...Object.keys(b as object)])].sort();
    for (const k of keys) diff((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k, out, max);
    return;
  }
  out.push({ path: path || '(root)', stored: a ?? null, replayed: b ?? null });
}

/**
 * Re-executes a stored decision with this service's rules and compares. `auditedHash` is the hash
 * the decision's audit event recorded (signed and chained): the record is intact when its content
 * still hashes to its hash and that hash is the audited one, so rewriting a record together with
 * its hash is seen too.
 */
export function replayDecision(row: DecisionRow, auditedHash: string | undefined): Replay {
  const storedRuleSet = { id: row.ruleSetId, version: row.ruleSetVersion, hash: row.ruleSetHash };
  const input = canonical(row.input) as { request: unknown; facts: unknown };
  const storedOutput = canonical(row.output);
  const intact =
    auditedHash === row.hash &&
    sha256Canonical({ input, dictionaryVersion: row.dictionaryVersion, ruleSet: storedRuleSet, output: storedOutput }) === row.hash;
  const def = agentDef(row.agent);
  if (!def) {
    return {
      reproduced: false,
      intact,
      hash: '',
      ruleSetChanged: true,
      divergences: [],
      error: `Agent ${row.agent} is no longer in the catalogue.`,
    };
  }
  const ruleSet = ruleSetOf(def);
  const ruleSetChanged = ruleSet.hash !== row.ruleSetHash || ruleSet.version !== row.ruleSetVersion || ruleSet.id !== row.ruleSetId;
  let output: unknown;
  try {
    output = canonical(def.decide(input.request, input.facts, def.ruleSet.rules));
  } catch (err) {
    return {
      reproduced: false,
      intact,
      hash: '',
      ruleSetChanged,
      divergences: [],
      error: err instanceof Error ? err.message : String(err),
    };
  }
  const hash = sha256Canonical({ input, dictionaryVersion: row.dictionaryVersion, ruleSet, output });
  const divergences: Replay['divergences'] = [];
  diff(storedOutput, output, '', divergences);
  return { reproduced: hash === (auditedHash ?? row.hash), intact, hash, ruleSetChanged, divergences, error: null };
}

const auditedHashOf = (data: unknown): string | undefined =>
  typeof (data as { hash?: unknown } | null)?.hash === 'string' ? (data as { hash: string }).hash : undefined;

export function renderDecision(row: DecisionRow) {
  return {
    object: 'svc.agents.decision' as const,
    id: row.id,
    agent: row.agent,
    input: canonical(row.input) as { request: unknown; facts: unknown },
    dictionaryVersion: row.dictionaryVersion,
    bundleHash: row.bundleHash,
    ruleSet: { id: row.ruleSetId, version: row.ruleSetVersion, hash: row.ruleSetHash },
    output: canonical(row.output) as Record<string, unknown>,
    hash: row.hash,
    source: row.source as 'api' | 'event',
    eventId: row.eventId,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function getDecision(prisma: Prisma, tenantId: string, id: string) {
  const row = (await scopeToTenant(prisma, tenantId).agentDecision.findFirst({ where: { id } })) as DecisionRow | null;
  if (!row) throw new ApiError('not_found', `Decision ${id} was not found.`);
  const audited = await scopeToTenant(prisma, tenantId).auditEvent.findFirst({
    where: { resourceId: id, action: 'agent.decision_recorded' },
    select: { data: true },
  });
  return { ...renderDecision(row), replay: replayDecision(row, auditedHashOf(audited?.data)) };
}

/**
 * Re-executes the decisions of a replayed range of the trail, given their audit events. A decision
 * whose record is gone counts as mismatched.
 */
export async function replayDecisions(
  prisma: Prisma,
  tenantId: string,
  events: { resourceId: string; data: unknown }[],
): Promise<{ replayed: number; mismatched: number; mismatchedIds: string[] }> {
  const audited = new Map(events.map((e) => [e.resourceId, auditedHashOf(e.data)]));
  const ids = [...audited.keys()];
  let replayed = 0;
  const mismatchedIds: string[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    const rows = (await scopeToTenant(prisma, tenantId).agentDecision.findMany({
      where: { id: { in: chunk } },
      orderBy: { id: 'asc' },
    })) as DecisionRow[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of chunk) {
      replayed++;
      const row = byId.get(id);
      const r = row ? replayDecision(row, audited.get(id)) : undefined;
      if (!(r?.reproduced && r.intact)) mismatchedIds.push(id);
    }
  }
  return { replayed, mismatched: mismatchedIds.length, mismatchedIds };
}
