import type { BlastRadius, DictionaryImpact, EvidenceReuse, OnboardingSavings, Relation } from '@svc/contract';
import type { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { keysetList } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import type { CrosswalkEdge } from '../../generated/prisma/client.ts';
import { resolveVersion } from '../frameworks/service.ts';

type Kind = 'control' | 'clause';
interface Node {
  framework: string;
  kind: Kind;
  ref: string;
}
const nodeKey = (n: Node) => `${n.framework}|${n.kind}|${n.ref}`;

/** How much of a change or of coverage flows across an edge of each relationship (DOMAIN.md). */
export const RELATIONSHIP_FACTOR: Record<string, number> = { equal: 1, subset: 0.8, superset: 0.8, intersect: 0.5, not_related: 0 };
/** Paths weaker than this are not followed further nor reported. */
const MIN_WEIGHT = 0.1;
const MAX_HOPS = 2;

/** The dictionaries an assessment of each type concerns, for the systems a blast radius reaches. */
const ASSESSMENT_FRAMEWORKS: Record<string, readonly string[]> = {
  fria: ['eu-ai-act'],
  'risk-classification': ['eu-ai-act'],
  conformity: ['eu-ai-act'],
  dpia: ['gdpr', 'uk-gdpr'],
  'aims-internal-audit': ['iso-iec-42001'],
};

/** Titles of requirements in the latest version of each dictionary, fetched for the nodes asked. */
async function titles(prisma: Prisma, nodes: Node[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const frameworks = [...new Set(nodes.map((n) => n.framework))];
  if (frameworks.length === 0) return out;
  const latest = await prisma.framework.findMany({ where: { id: { in: frameworks } }, select: { id: true, latestVersion: true } });
  const keyOf = new Map(latest.map((f) => [f.id, `${f.id}@${f.latestVersion}`]));
  const byKind = (kind: Kind) => nodes.filter((n) => n.kind === kind && keyOf.has(n.framework));
  const controls = byKind('control');
  const clauses = byKind('clause');
  const [ctl, cls] = await Promise.all([
    controls.length
      ? prisma.frameworkControl.findMany({
          where: { OR: controls.map((n) => ({ versionKey: keyOf.get(n.framework) as string, id: n.ref })) },
          select: { versionKey: true, id: true, title: true },
        })
      : [],
    clauses.length
      ? prisma.frameworkClause.findMany({
          where: { OR: clauses.map((n) => ({ versionKey: keyOf.get(n.framework) as string, ref: n.ref })) },
          select: { versionKey: true, ref: true, title: true },
        })
      : [],
  ]);
  for (const c of ctl) out.set(`${c.versionKey.split('@')[0]}|control|${c.id}`, c.title);
  for (const c of cls) out.set(`${c.versionKey.split('@')[0]}|clause|${c.ref}`, c.title);
  return out;
}

const withTitle = (t: Map<string, string>) => (n: Node) => ({
  framework: n.framework,
  kind: n.kind,
  ref: n.ref,
  title: t.get(nodeKey(n)) ?? null,
});
const ends = (e: CrosswalkEdge): [Node, Node] => [
  { framework: e.fromDict, kind: e.fromKind as Kind, ref: e.fromRef },
  { framework: e.toDict, kind: e.toKind as Kind, ref: e.toRef },
];

export async function listRelations(
  prisma: Prisma,
  query: { limit: number; cursor?: string; framework?: string; requirement?: string; relationship?: string },
): Promise<{ data: z.infer<typeof Relation>[]; cursor: string | null }> {
  const and: Record<string, unknown>[] = [];
  if (query.framework) and.push({ OR: [{ fromDict: query.framework }, { toDict: query.framework }] });
  if (query.requirement) and.push({ OR: [{ fromRef: query.requirement }, { toRef: query.requirement }] });
  if (query.relationship) and.push({ relationship: query.relationship });
  const page = await keysetList(prisma.crosswalkEdge, query, {
    key: 'seq',
    order: 'asc',
    where: and.length ? { AND: and } : {},
    render: (r: CrosswalkEdge) => r,
  });
  const t = await titles(prisma, page.data.flatMap(ends));
  const title = withTitle(t);
  return {
    cursor: page.cursor,
    data: page.data.map((e) => {
      const [source, target] = ends(e);
      return {
        object: 'svc.graph.relation' as const,
        id: `${e.crosswalkId}#${e.ord}`,
        crosswalk: e.crosswalkId,
        source: title(source),
        target: title(target),
        relationship: e.relationship as z.infer<typeof Relation>['relationship'],
        rationale: e.rationale as z.infer<typeof Relation>['rationale'],
        strength: e.strength,
        note: e.note,
        origin: e.origin as 'official' | 'authored',
      };
    }),
  };
}

/** A control of the latest version of whichever dictionary holds it; 404 when none does. */
async function findControl(prisma: Prisma, id: string): Promise<{ framework: string; clauseRefs: string[] }> {
  const frameworks = await prisma.framework.findMany({ select: { id: true, latestVersion: true } });
  const row = await prisma.frameworkControl.findFirst({
    where: { id, versionKey: { in: frameworks.map((f) => `${f.id}@${f.latestVersion}`) } },
    select: { versionKey: true, clauseRefs: true },
  });
  if (!row) throw new ApiError('not_found', `Control ${id} is in no framework dictionary.`, [{ field: 'control', issue: 'not_found' }]);
  return { framework: row.versionKey.split('@')[0] as string, clauseRefs: row.clauseRefs };
}

/** The edges touching any of the nodes, in either direction, as (from node, to node, edge) steps. */
async function stepsFrom(prisma: Prisma, nodes: Node[]): Promise<{ from: Node; to: Node; edge: CrosswalkEdge; forward: boolean }[]> {
  if (nodes.length === 0) return [];
  const or = nodes.flatMap((n) => [
    { fromDict: n.framework, fromKind: n.kind, fromRef: n.ref },
    { toDict: n.framework, toKind: n.kind, toRef: n.ref },
  ]);
  const wanted = new Set(nodes.map(nodeKey));
  const edges = await prisma.crosswalkEdge.findMany({ where: { OR: or } });
  return edges.flatMap((edge) => {
    const [a, b] = ends(edge);
    const out: { from: Node; to: Node; edge: CrosswalkEdge; forward: boolean }[] = [];
    if (wanted.has(nodeKey(a))) out.push({ from: a, to: b, edge, forward: true });
    if (wanted.has(nodeKey(b))) out.push({ from: b, to: a, edge, forward: false });
    return out;
  });
}

/** Controls of each dictionary's latest version that cite one of the given clauses. */
async function controlsCiting(prisma: Prisma, clauses: Node[]): Promise<Node[]> {
  if (clauses.length === 0) return [];
  const frameworks = [...new Set(clauses.map((n) => n.framework))];
  const latest = await prisma.framework.findMany({ where: { id: { in: frameworks } }, select: { id: true, latestVersion: true } });
  const out: Node[] = [];
  for (const f of latest) {
    const refs = clauses.filter((n) => n.framework === f.id).map((n) => n.ref);
    const rows = await prisma.frameworkControl.findMany({
      where: { versionKey: `${f.id}@${f.latestVersion}`, clauseRefs: { hasSome: refs } },
      select: { id: true },
    });
    out.push(...rows.map((r) => ({ framework: f.id, kind: 'control' as const, ref: r.id })));
  }
  return out;
}

export async function blastRadius(prisma: Prisma, tenantId: string, control: string): Promise<z.infer<typeof BlastRadius>> {
  const origin = await findControl(prisma, control);
  const start: Node[] = [
    { framework: origin.framework, kind: 'control', ref: control },
    ...origin.clauseRefs.map((ref) => ({ framework: origin.framework, kind: 'clause' as const, ref })),
  ];
  const best = new Map<string, { node: Node; weight: number; hops: number }>();
  for (const n of start) best.set(nodeKey(n), { node: n, weight: 1, hops: 0 });
  let frontier = start;
  for (let hop = 1; hop <= MAX_HOPS && frontier.length > 0; hop++) {
    const next: Node[] = [];
    for (const s of await stepsFrom(prisma, frontier)) {
      const w = (best.get(nodeKey(s.from))?.weight ?? 0) * (RELATIONSHIP_FACTOR[s.edge.relationship] ?? 0) * (s.edge.strength / 10);
      if (w < MIN_WEIGHT) continue;
      const k = nodeKey(s.to);
      const seen = best.get(k);
      if (seen && seen.weight >= w) continue;
      best.set(k, { node: s.to, weight: w, hops: hop });
      next.push(s.to);
    }
    frontier = next;
  }
  const reached = [...best.values()];
  const t = await titles(
    prisma,
    reached.map((r) => r.node),
  );
  const byFramework = new Map<string, typeof reached>();
  for (const r of reached) byFramework.set(r.node.framework, [...(byFramework.get(r.node.framework) ?? []), r]);
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const affectedFrameworks = [...byFramework.entries()]
    .map(([framework, rs]) => ({
      framework,
      weight: round(Math.max(...rs.map((r) => r.weight))),
      requirements: rs
        .sort((a, b) => b.weight - a.weight || a.node.ref.localeCompare(b.node.ref))
        .map((r) => ({ ...withTitle(t)(r.node), weight: round(r.weight), hops: r.hops })),
    }))
    .sort((a, b) => b.weight - a.weight || a.framework.localeCompare(b.framework));

  // The tenant's systems: evidence citing a reached control (or a control citing a reached clause),
  // and assessments of a reached dictionary.
  const controlIds = new Set(reached.filter((r) => r.node.kind === 'control').map((r) => r.node.ref));
  for (const c of await controlsCiting(
    prisma,
    reached.filter((r) => r.node.kind === 'clause').map((r) => r.node),
  ))
    controlIds.add(c.ref);
  const db = scopeToTenant(prisma, tenantId);
  const [evidence, assessments] = await Promise.all([
    db.evidence.findMany({
      where: { systemId: { not: null }, controlIds: { hasSome: [...controlIds] } },
      select: { id: true, systemId: true },
    }),
    db.assessment.findMany({ select: { id: true, systemId: true, type: true } }),
  ]);
  const systems = new Map<string, { evidence: string[]; assessments: string[] }>();
  const entry = (id: string) => {
    const known = systems.get(id);
    if (known) return known;
    const fresh = { evidence: [] as string[], assessments: [] as string[] };
    systems.set(id, fresh);
    return fresh;
  };
  for (const e of evidence) if (e.systemId) entry(e.systemId).evidence.push(e.id);
  for (const a of assessments)
    if ((ASSESSMENT_FRAMEWORKS[a.type] ?? []).some((f) => byFramework.has(f))) entry(a.systemId).assessments.push(a.id);
  const affectedSystems = [...systems.entries()]
    .map(([systemId, s]) => ({ systemId, evidence: s.evidence.sort(), assessments: s.assessments.sort() }))
    .sort((a, b) => a.systemId.localeCompare(b.systemId));
  return {
    object: 'svc.graph.blast_radius',
    control: withTitle(t)(start[0] as Node),
    affectedFrameworks: affectedFrameworks.flatMap((f) => f.requirements.map((r) => `${r.framework}:${r.ref}`)),
    affectedSystems: affectedSystems.length,
    frameworks: affectedFrameworks,
    systems: affectedSystems,
  };
}

/** The relationship seen from the walking side: `subset` read backwards is `superset`. */
function seenFrom(relationship: string, forward: boolean): string {
  if (forward) return relationship;
  return relationship === 'subset' ? 'superset' : relationship === 'superset' ? 'subset' : relationship;
}
const coverageOf = (rel: string): 'full' | 'partial' | undefined =>
  rel === 'equal' || rel === 'superset' ? 'full' : rel === 'subset' || rel === 'intersect' ? 'partial' : undefined;

interface Reach {
  node: Node;
  coverage: 'full' | 'partial';
  strength: number;
  via: Node;
}

/** Requirements reached in one step from the given ones, strongest result per requirement. */
async function reuseFrom(prisma: Prisma, nodes: Node[]): Promise<Map<string, Reach>> {
  const out = new Map<string, Reach>();
  const own = new Set(nodes.map((n) => n.framework));
  for (const s of await stepsFrom(prisma, nodes)) {
    if (own.has(s.to.framework)) continue;
    const coverage = coverageOf(seenFrom(s.edge.relationship, s.forward));
    if (!coverage) continue;
    const k = nodeKey(s.to);
    const prev = out.get(k);
    const better =
      !prev || (coverage === 'full' && prev.coverage === 'partial') || (coverage === prev.coverage && s.edge.strength > prev.strength);
    if (better) out.set(k, { node: s.to, coverage, strength: s.edge.strength, via: s.from });
  }
  return out;
}

/** Each control id of the latest dictionaries with its dictionary and clauses. */
async function controlIndex(prisma: Prisma, ids: string[]): Promise<Node[]> {
  if (ids.length === 0) return [];
  const frameworks = await prisma.framework.findMany({ select: { id: true, latestVersion: true } });
  const rows = await prisma.frameworkControl.findMany({
    where: { id: { in: ids }, versionKey: { in: frameworks.map((f) => `${f.id}@${f.latestVersion}`) } },
    select: { versionKey: true, id: true, clauseRefs: true },
  });
  return rows.flatMap((r) => {
    const framework = r.versionKey.split('@')[0] as string;
    return [
      { framework, kind: 'control' as const, ref: r.id },
      ...r.clauseRefs.map((ref) => ({ framework, kind: 'clause' as const, ref })),
    ];
  });
}

export async function evidenceReuse(prisma: Prisma, tenantId: string, evidenceId: string): Promise<z.infer<typeof EvidenceReuse>> {
  const ev = await scopeToTenant(prisma, tenantId).evidence.findUnique({ where: { id: evidenceId }, select: { controlIds: true } });
  if (!ev) throw new ApiError('not_found', `Evidence ${evidenceId} was not found.`);
  const reached = [...(await reuseFrom(prisma, await controlIndex(prisma, ev.controlIds))).values()];
  const t = await titles(
    prisma,
    reached.flatMap((r) => [r.node, r.via]),
  );
  const title = withTitle(t);
  return {
    object: 'svc.graph.evidence_reuse',
    evidenceId,
    controls: ev.controlIds,
    satisfies: reached
      .sort(
        (a, b) =>
          (a.coverage === b.coverage ? 0 : a.coverage === 'full' ? -1 : 1) ||
          b.strength - a.strength ||
          a.node.framework.localeCompare(b.node.framework) ||
          a.node.ref.localeCompare(b.node.ref),
      )
      .map((r) => ({ ...title(r.node), coverage: r.coverage, strength: r.strength, via: title(r.via) })),
  };
}

export async function onboardingSavings(prisma: Prisma, tenantId: string): Promise<z.infer<typeof OnboardingSavings>> {
  const db = scopeToTenant(prisma, tenantId);
  const [activations, evidence] = await Promise.all([
    db.frameworkActivation.findMany({ orderBy: { frameworkId: 'asc' } }),
    db.evidence.findMany({ select: { controlIds: true } }),
  ]);
  const cited = new Set(evidence.flatMap((e) => e.controlIds));
  const citedNodes = await controlIndex(prisma, [...cited]);
  const frameworks = [];
  let total = 0;
  let saved = 0;
  for (const a of activations) {
    const controls = await prisma.frameworkControl.findMany({
      where: { versionKey: a.versionKey },
      select: { id: true, clauseRefs: true },
    });
    const direct = controls.filter((c) => cited.has(c.id));
    // Evidence of the other dictionaries, reaching this one's controls or the clauses they cite.
    const reach = await reuseFrom(
      prisma,
      citedNodes.filter((n) => n.framework !== a.frameworkId),
    );
    let full = 0;
    let partial = 0;
    for (const c of controls) {
      if (cited.has(c.id)) continue;
      const hits = [
        reach.get(`${a.frameworkId}|control|${c.id}`),
        ...c.clauseRefs.map((ref) => reach.get(`${a.frameworkId}|clause|${ref}`)),
      ].filter((x): x is Reach => x !== undefined);
      if (hits.some((h) => h.coverage === 'full')) full++;
      else if (hits.length > 0) partial++;
    }
    const n = controls.length;
    const share = (x: number) => (n === 0 ? 0 : Math.round((x / n) * 1000) / 1000);
    frameworks.push({
      framework: a.frameworkId,
      dictionaryVersion: a.versionKey,
      controls: n,
      direct: direct.length,
      viaCrosswalk: { full, partial },
      savedShare: share(full + partial / 2),
      coveredShare: share(direct.length + full + partial / 2),
    });
    total += n;
    saved += full + partial / 2;
  }
  return {
    object: 'svc.graph.onboarding_savings',
    frameworks,
    totals: { controls: total, savedShare: total === 0 ? 0 : Math.round((saved / total) * 1000) / 1000 },
  };
}

export async function dictionaryImpact(
  prisma: Prisma,
  tenantId: string,
  query: { framework: string; from?: string; to?: string },
): Promise<z.infer<typeof DictionaryImpact>> {
  const framework = await prisma.framework.findUnique({ where: { id: query.framework } });
  if (!framework) throw new ApiError('not_found', `Framework ${query.framework} was not found.`);
  const db = scopeToTenant(prisma, tenantId);
  const activation = await db.frameworkActivation.findFirst({ where: { frameworkId: framework.id } });
  const versions = await prisma.frameworkVersion.findMany({ where: { frameworkId: framework.id }, select: { version: true } });
  const oldest = versions.map((v) => v.version).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }))[0] as string;
  const from = await resolveVersion(prisma, `${framework.id}@${query.from ?? activation?.versionKey.split('@')[1] ?? oldest}`);
  const to = await resolveVersion(prisma, `${framework.id}@${query.to ?? framework.latestVersion}`);
  const load = (key: string) =>
    Promise.all([
      prisma.frameworkClause.findMany({ where: { versionKey: key } }),
      prisma.frameworkControl.findMany({ where: { versionKey: key } }),
      prisma.frameworkObligation.findMany({ where: { versionKey: key } }),
    ]);
  const [[fc, fk, fo], [tc, tk, to_]] = await Promise.all([load(from.key), load(to.key)]);
  type Item = { kind: 'clause' | 'control' | 'obligation'; ref: string; title: string; sig: string };
  const items = (cl: typeof fc, ct: typeof fk, ob: typeof fo): Map<string, Item> =>
    new Map(
      [
        ...cl.map((c) => ({ kind: 'clause' as const, ref: c.ref, title: c.title, sig: JSON.stringify([c.title, c.summary, c.parentRef]) })),
        ...ct.map((c) => ({
          kind: 'control' as const,
          ref: c.id,
          title: c.title,
          sig: JSON.stringify([c.title, c.description, c.category, c.clauseRefs]),
        })),
        ...ob.map((o) => ({
          kind: 'obligation' as const,
          ref: o.id,
          title: o.title,
          sig: JSON.stringify([o.title, o.description, o.clauseRef, o.actor, o.applicableFrom.toISOString()]),
        })),
      ].map((i) => [`${i.kind}|${i.ref}`, i]),
    );
  const before = items(fc, fk, fo);
  const after = items(tc, tk, to_);
  const view = ({ kind, ref, title }: Item) => ({ kind, ref, title });
  const added = [...after.entries()].filter(([k]) => !before.has(k)).map(([, i]) => view(i));
  const removed = [...before.entries()].filter(([k]) => !after.has(k)).map(([, i]) => view(i));
  const changed = [...after.entries()].filter(([k, i]) => before.has(k) && before.get(k)?.sig !== i.sig).map(([, i]) => view(i));
  const touchedControls = new Set([...removed, ...changed].filter((i) => i.kind === 'control').map((i) => i.ref));
  const obligationChange = new Map<string, 'removed' | 'changed'>([
    ...removed.filter((i) => i.kind === 'obligation').map((i) => [i.ref, 'removed'] as const),
    ...changed.filter((i) => i.kind === 'obligation').map((i) => [i.ref, 'changed'] as const),
  ]);
  const [evidence, obligations] = await Promise.all([
    touchedControls.size
      ? db.evidence.findMany({ where: { controlIds: { hasSome: [...touchedControls] } }, select: { id: true, controlIds: true } })
      : [],
    obligationChange.size
      ? db.obligation.findMany({
          where: { frameworkId: framework.id, sourceRef: { in: [...obligationChange.keys()] } },
          select: { id: true, sourceRef: true },
        })
      : [],
  ]);
  return {
    object: 'svc.graph.impact',
    framework: framework.id,
    from: from.version,
    to: to.version,
    added,
    removed,
    changed,
    tenant: {
      evidence: evidence
        .map((e) => ({ id: e.id, controls: e.controlIds.filter((c) => touchedControls.has(c)) }))
        .sort((a, b) => a.id.localeCompare(b.id)),
      obligations: obligations
        .map((o) => ({ id: o.id, sourceRef: o.sourceRef, change: obligationChange.get(o.sourceRef) as 'removed' | 'changed' }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    },
  };
}
