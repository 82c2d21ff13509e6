import { groupAAgents } from '@svc/contract';
import { defineAgent } from '../types.ts';
import { attr, cmp, dictionaryKey, type EdgeFact, edgeFact, eventMatches, iso, percent, pinnedKeys, sha256, tenantDb } from './shared.ts';

/**
 * evidence-compiler: an evidence pack for one framework. Each control of the framework gets the
 * evidence that cites it, plus the evidence citing a control of another framework that a
 * crosswalk edge maps onto it (or onto a clause it cites); each item is fresh or stale by a
 * window per kind of artefact.
 */

export const rules = {
  /** Days an artefact of each kind stays fresh after collection; `default` for the others. */
  freshnessDays: {
    default: 365,
    log: 90,
    screenshot: 180,
    configuration: 180,
    'test-result': 180,
    certificate: 1095,
    policy: 730,
  } as Record<string, number>,
  /** Coverage of the pack's control by the relationship read from the cited control's side. */
  coverage: { equal: 'full', superset: 'full', subset: 'partial', intersect: 'partial' } as Record<string, string>,
  reverse: { subset: 'superset', superset: 'subset' } as Record<string, string>,
  /** Crosswalk matches count only through edges of these coverages and at least this strength. */
  acceptCoverage: ['full', 'partial'],
  minStrength: 5,
  /** The pack an evidence event recompiles when the event names no framework: the AI Act's. */
  eventFramework: 'eu-ai-act',
};

interface Ev {
  id: string;
  title: string;
  kind: string;
  sha256: string | null;
  controlIds: string[];
  collectedAt: string;
  expiresAt: string | null;
}
interface Facts {
  framework: string;
  asOf: string;
  controls: { id: string; title: string; clauseRefs: string[] }[];
  evidence: Ev[];
  /** Controls of other dictionaries the evidence cites, with their clauses. */
  foreign: { controlId: string; framework: string; clauseRefs: string[] }[];
  /** Edges between a foreign control (or its clauses) and a requirement of the pack's framework. */
  edges: EdgeFact[];
}

export const evidenceCompiler = defineAgent({
  spec: groupAAgents.evidenceCompiler,
  ruleSet: { id: 'evidence-compiler-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx, input) => ctx.versionOf(input.framework),
  async gather(ctx, input): Promise<Facts> {
    const versionKey = await dictionaryKey(ctx, input.framework, 'framework');
    const [controls, evidence] = await Promise.all([
      ctx.prisma.frameworkControl.findMany({ where: { versionKey }, orderBy: { ord: 'asc' } }),
      tenantDb(ctx).evidence.findMany({ where: input.systemId ? { systemId: input.systemId } : {}, orderBy: { id: 'asc' } }),
    ]);
    const own = new Set(controls.map((c) => c.id));
    const foreignIds = [...new Set(evidence.flatMap((e) => e.controlIds).filter((id) => !own.has(id)))].sort(cmp);
    const keys = await pinnedKeys(ctx);
    const foreignRows = foreignIds.length
      ? await ctx.prisma.frameworkControl.findMany({
          where: { id: { in: foreignIds }, versionKey: { in: [...keys.values()].filter((k) => !k.startsWith(`${input.framework}@`)) } },
          orderBy: [{ id: 'asc' }, { versionKey: 'asc' }],
        })
      : [];
    const foreign = foreignRows.map((r) => ({
      controlId: r.id,
      framework: r.versionKey.split('@')[0] as string,
      clauseRefs: [...r.clauseRefs],
    }));
    const nodes = foreign.flatMap((f) => [
      { dict: f.framework, kind: 'control', ref: f.controlId },
      ...f.clauseRefs.map((c) => ({ dict: f.framework, kind: 'clause', ref: c })),
    ]);
    const edges = nodes.length
      ? await ctx.prisma.crosswalkEdge.findMany({
          where: {
            OR: nodes.flatMap((n) => [
              { fromDict: n.dict, fromKind: n.kind, fromRef: n.ref, toDict: input.framework },
              { toDict: n.dict, toKind: n.kind, toRef: n.ref, fromDict: input.framework },
            ]),
          },
          orderBy: { seq: 'asc' },
        })
      : [];
    return {
      framework: input.framework,
      asOf: ctx.now.toISOString(),
      controls: controls.map((c) => ({ id: c.id, title: c.title, clauseRefs: [...c.clauseRefs] })),
      evidence: evidence.map((e) => ({
        id: e.id,
        title: e.title,
        kind: e.kind,
        sha256: e.sha256,
        controlIds: [...e.controlIds].sort(cmp),
        collectedAt: iso(e.collectedAt) as string,
        expiresAt: iso(e.expiresAt),
      })),
      foreign,
      edges: edges.map(edgeFact),
    };
  },
  decide(input, facts, r: typeof rules) {
    const asOf = Date.parse(facts.asOf);
    const freshness = (e: Ev): 'fresh' | 'stale' => {
      if (e.expiresAt && Date.parse(e.expiresAt) <= asOf) return 'stale';
      const days = r.freshnessDays[e.kind] ?? r.freshnessDays.default ?? 365;
      return Date.parse(e.collectedAt) + days * 86_400_000 < asOf ? 'stale' : 'fresh';
    };
    // For each target requirement (`control|id` or `clause|ref`), the foreign controls mapped onto it.
    const mappedFrom = new Map<string, Set<string>>();
    for (const f of facts.foreign) {
      const mine = new Set([`control|${f.controlId}`, ...f.clauseRefs.map((c) => `clause|${c}`)]);
      for (const e of facts.edges) {
        if (e.strength < r.minStrength) continue;
        let target: string | null = null;
        let rel = e.relationship;
        if (e.fromDict === f.framework && mine.has(`${e.fromKind}|${e.fromRef}`) && e.toDict === facts.framework)
          target = `${e.toKind}|${e.toRef}`;
        else if (e.toDict === f.framework && mine.has(`${e.toKind}|${e.toRef}`) && e.fromDict === facts.framework) {
          target = `${e.fromKind}|${e.fromRef}`;
          rel = r.reverse[rel] ?? rel;
        }
        const coverage = r.coverage[rel];
        if (!target || !coverage || !r.acceptCoverage.includes(coverage)) continue;
        mappedFrom.set(target, (mappedFrom.get(target) ?? new Set()).add(f.controlId));
      }
    }
    const used = new Set<string>();
    const controls = facts.controls.map((c) => {
      const via = new Set<string>([
        ...(mappedFrom.get(`control|${c.id}`) ?? []),
        ...c.clauseRefs.flatMap((ref) => [...(mappedFrom.get(`clause|${ref}`) ?? [])]),
      ]);
      const direct = facts.evidence.filter((e) => e.controlIds.includes(c.id));
      const crossed = facts.evidence
        .filter((e) => !e.controlIds.includes(c.id))
        .map((e) => ({ e, through: e.controlIds.filter((id) => via.has(id)).sort(cmp)[0] }))
        .filter((x) => x.through !== undefined);
      const evidence = [
        ...direct.map((e) => ({ e, match: 'direct' as const, via: null as string | null })),
        ...crossed.map((x) => ({ e: x.e, match: 'crosswalk' as const, via: x.through as string })),
      ].map(({ e, match, via: through }) => {
        used.add(e.id);
        return { id: e.id, title: e.title, sha256: e.sha256, collectedAt: e.collectedAt, freshness: freshness(e), match, via: through };
      });
      const status = evidence.some((e) => e.freshness === 'fresh') ? 'covered' : evidence.length ? 'stale' : 'uncovered';
      return { controlId: c.id, title: c.title, status: status as 'covered' | 'stale' | 'uncovered', evidence };
    });
    const count = (s: string) => controls.filter((c) => c.status === s).length;
    return {
      framework: facts.framework,
      systemId: input.systemId ?? null,
      asOf: facts.asOf,
      controls,
      counts: {
        controls: controls.length,
        covered: count('covered'),
        stale: count('stale'),
        uncovered: count('uncovered'),
        evidence: used.size,
      },
      coveragePercent: percent(count('covered'), controls.length),
      packSha256: sha256({ framework: facts.framework, systemId: input.systemId ?? null, controls }),
    };
  },
  fromEvent(event) {
    if (!eventMatches(event, 'evidence.')) return null;
    const framework = attr(event, 'framework') ?? rules.eventFramework;
    const systemId = attr(event, 'systemId');
    return systemId ? { framework, systemId } : { framework };
  },
});
