import { groupAAgents } from '@svc/contract';
import type { Prisma } from '../../db/client.ts';
import type { AgentContext } from '../types.ts';
import { defineAgent } from '../types.ts';
import { cmp, type EdgeFact, edgeFact, notFound, pinnedKeys } from './shared.ts';

/**
 * framework-mapper: walks the crosswalk edges from a control (and the clauses it cites) to every
 * requirement of another dictionary, directly or through one intermediate requirement, and
 * reports the relationship, strength and coverage of each, grouped by dictionary.
 */

export const rules = {
  /** Short names people write for a dictionary id (`iso-27001:A.5.1`). */
  aliases: {
    'iso-27001': 'iso-iec-27001',
    iso27001: 'iso-iec-27001',
    'iso-27701': 'iso-iec-27701',
    'iso-42001': 'iso-iec-42001',
    iso42001: 'iso-iec-42001',
    'iso-23894': 'iso-iec-23894',
    'ai-act': 'eu-ai-act',
    'nist-csf': 'nist-csf-2',
    'nist-800-53': 'nist-sp-800-53',
    'pci-dss': 'pci-dss-4',
    soc2: 'soc2-tsc',
    'cis-controls': 'cis-controls-8',
  } as Record<string, string>,
  /** Dictionary of a bare control id, by the prefix before its first dash (`AIA-RMS-01`): names the decision's dictionary version. */
  controlPrefixes: {
    CCPA: 'ccpa-cpra',
    CIS: 'cis-controls-8',
    COAI: 'colorado-ai-act',
    CCM: 'csa-ccm',
    CRA: 'cyber-resilience-act',
    DORA: 'dora',
    AIA: 'eu-ai-act',
    GDPR: 'gdpr',
    HIPAA: 'hipaa',
    DPDP: 'india-dpdp',
    ISO23894: 'iso-iec-23894',
    ISO27001: 'iso-iec-27001',
    ISO27701: 'iso-iec-27701',
    ISO42001: 'iso-iec-42001',
    LGPD: 'lgpd',
    NIS2: 'nis2',
    AIRMF: 'nist-ai-rmf',
    CSF: 'nist-csf-2',
    PF: 'nist-privacy-framework',
    SP80053: 'nist-sp-800-53',
    SSDF: 'nist-ssdf',
    PCIDSS: 'pci-dss-4',
    SOC2: 'soc2-tsc',
    UKGDPR: 'uk-gdpr',
  } as Record<string, string>,
  /** Coverage of the far requirement by the relationship read from the walking side (DOMAIN.md, NIST OLIR). */
  coverage: { equal: 'full', superset: 'full', subset: 'partial', intersect: 'partial' } as Record<string, 'full' | 'partial'>,
  /** A relationship read backwards: `A subset B` is `B superset A`. */
  reverse: { subset: 'superset', superset: 'subset', equal: 'equal', intersect: 'intersect', not_related: 'not_related' } as Record<
    string,
    string
  >,
  /** Relationship of a two-step mapping from the relationships of its steps (first step, then second). */
  compose: {
    equal: { equal: 'equal', subset: 'subset', superset: 'superset', intersect: 'intersect' },
    subset: { equal: 'subset', subset: 'subset', superset: 'intersect', intersect: 'intersect' },
    superset: { equal: 'superset', subset: 'intersect', superset: 'superset', intersect: 'intersect' },
    intersect: { equal: 'intersect', subset: 'intersect', superset: 'intersect', intersect: 'intersect' },
  } as Record<string, Record<string, string>>,
  /** Edges weaker than this are not followed (strength is 1 to 10). */
  minStrength: 3,
  /** Two-step mappings are followed only through edges at least this strong. */
  minStrengthSecondHop: 5,
  maxHops: 2,
};

type Kind = 'control' | 'clause';
interface Node {
  framework: string;
  kind: Kind;
  ref: string;
}
type Edge = EdgeFact;
interface Facts {
  origin: Node & { clauseRefs: string[] };
  start: Node[];
  edges: Edge[];
  titles: Record<string, string>;
  frameworkTitles: Record<string, string>;
}

const key = (n: Node) => `${n.framework}|${n.kind}|${n.ref}`;

async function edgesTouching(prisma: Prisma, nodes: Node[]): Promise<Edge[]> {
  if (nodes.length === 0) return [];
  const rows = await prisma.crosswalkEdge.findMany({
    where: {
      OR: nodes.flatMap((n) => [
        { fromDict: n.framework, fromKind: n.kind, fromRef: n.ref },
        { toDict: n.framework, toKind: n.kind, toRef: n.ref },
      ]),
    },
    orderBy: { seq: 'asc' },
  });
  return rows.map(edgeFact);
}

/** One step along an edge from `from`, with the relationship read from that side. */
function step(e: Edge, from: Node): { to: Node; relationship: string } | null {
  if (e.fromDict === from.framework && e.fromKind === from.kind && e.fromRef === from.ref)
    return { to: { framework: e.toDict, kind: e.toKind as Kind, ref: e.toRef }, relationship: e.relationship };
  if (e.toDict === from.framework && e.toKind === from.kind && e.toRef === from.ref)
    return {
      to: { framework: e.fromDict, kind: e.fromKind as Kind, ref: e.fromRef },
      relationship: rules.reverse[e.relationship] ?? e.relationship,
    };
  return null;
}

/** `AIA-RMS-01`, `iso-27001:A.5.1`, `eu-ai-act:art-9` to the starting requirement; 404 when no dictionary holds it. */
async function resolveStart(ctx: AgentContext, ref: string): Promise<{ origin: Node & { clauseRefs: string[] }; start: Node[] }> {
  const prisma = ctx.prisma;
  const keys = await pinnedKeys(ctx);
  const colon = ref.indexOf(':');
  if (colon < 0) {
    const row = await prisma.frameworkControl.findFirst({
      where: { id: ref, versionKey: { in: [...keys.values()] } },
      orderBy: { versionKey: 'asc' },
    });
    if (!row) throw notFound(`Control ${ref} is in no framework dictionary.`, 'control');
    const framework = row.versionKey.split('@')[0] as string;
    const origin = { framework, kind: 'control' as const, ref: row.id, clauseRefs: [...row.clauseRefs] };
    return { origin, start: [origin, ...row.clauseRefs.map((c) => ({ framework, kind: 'clause' as const, ref: c }))] };
  }
  const prefix = ref.slice(0, colon).toLowerCase();
  const local = ref.slice(colon + 1);
  const framework = rules.aliases[prefix] ?? prefix;
  const versionKey = keys.get(framework);
  if (!versionKey) throw notFound(`Framework ${prefix} was not found.`, 'control');
  // A control id as written, or with the dictionary's own prefix (`A.5.1` is `ISO27001-A.5.1`).
  const controls = await prisma.frameworkControl.findMany({
    where: { versionKey, OR: [{ id: local }, { id: { endsWith: `-${local}` } }] },
    orderBy: { ord: 'asc' },
  });
  const control = controls.find((c) => c.id === local) ?? controls[0];
  if (control) {
    const origin = { framework, kind: 'control' as const, ref: control.id, clauseRefs: [...control.clauseRefs] };
    return { origin, start: [origin, ...control.clauseRefs.map((c) => ({ framework, kind: 'clause' as const, ref: c }))] };
  }
  const clause = await prisma.frameworkClause.findUnique({ where: { versionKey_ref: { versionKey, ref: local } } });
  if (!clause) throw notFound(`${framework} has no control or clause ${local}.`, 'control');
  // A clause starts the walk together with the controls of its dictionary that cite it.
  const citing = await prisma.frameworkControl.findMany({ where: { versionKey, clauseRefs: { has: local } }, orderBy: { id: 'asc' } });
  const origin = { framework, kind: 'clause' as const, ref: local, clauseRefs: [] };
  return { origin, start: [origin, ...citing.map((c) => ({ framework, kind: 'control' as const, ref: c.id }))] };
}

async function titlesOf(ctx: AgentContext, nodes: Node[]): Promise<Record<string, string>> {
  const prisma = ctx.prisma;
  const keys = await pinnedKeys(ctx);
  const out: Record<string, string> = {};
  const controls = nodes.filter((n) => n.kind === 'control' && keys.has(n.framework));
  const clauses = nodes.filter((n) => n.kind === 'clause' && keys.has(n.framework));
  const [ctl, cls] = await Promise.all([
    controls.length
      ? prisma.frameworkControl.findMany({
          where: { OR: controls.map((n) => ({ versionKey: keys.get(n.framework) as string, id: n.ref })) },
        })
      : [],
    clauses.length
      ? prisma.frameworkClause.findMany({
          where: { OR: clauses.map((n) => ({ versionKey: keys.get(n.framework) as string, ref: n.ref })) },
        })
      : [],
  ]);
  for (const c of [...ctl].sort((a, b) => cmp(a.id, b.id))) out[`${c.versionKey.split('@')[0]}|control|${c.id}`] = c.title;
  for (const c of [...cls].sort((a, b) => cmp(a.ref, b.ref))) out[`${c.versionKey.split('@')[0]}|clause|${c.ref}`] = c.title;
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => cmp(a, b)));
}

interface Reach {
  node: Node;
  relationship: string;
  strength: number;
  coverage: 'full' | 'partial';
  hops: number;
  via: Node | null;
  crosswalks: string[];
}
const better = (a: Reach, b: Reach | undefined) =>
  !b ||
  (a.coverage === 'full' && b.coverage === 'partial') ||
  (a.coverage === b.coverage && (a.strength > b.strength || (a.strength === b.strength && a.hops < b.hops)));

export const frameworkMapper = defineAgent({
  spec: groupAAgents.frameworkMapper,
  ruleSet: { id: 'framework-mapper-rules', version: '1.0.0', rules },
  dictionaryVersion: (ctx, input) => {
    const colon = input.control.indexOf(':');
    if (colon >= 0) {
      const prefix = input.control.slice(0, colon).toLowerCase();
      return ctx.versionOf(rules.aliases[prefix] ?? prefix);
    }
    return ctx.versionOf(rules.controlPrefixes[input.control.split('-')[0] as string] ?? 'eu-ai-act');
  },
  async gather(ctx, input): Promise<Facts> {
    const { origin, start } = await resolveStart(ctx, input.control);
    const first = await edgesTouching(ctx.prisma, start);
    const startKeys = new Set(start.map(key));
    const reached = new Map<string, Node>();
    for (const e of first)
      for (const s of start) {
        const st = step(e, s);
        if (st && !startKeys.has(key(st.to)) && st.to.framework !== origin.framework) reached.set(key(st.to), st.to);
      }
    const second = await edgesTouching(
      ctx.prisma,
      [...reached.values()].sort((a, b) => cmp(key(a), key(b))),
    );
    const all = new Map<string, Edge>();
    for (const e of [...first, ...second]) all.set(`${e.crosswalkId}#${e.ord}`, e);
    const edges = [...all.values()].sort((a, b) => cmp(a.crosswalkId, b.crosswalkId) || a.ord - b.ord);
    const nodes = new Map<string, Node>();
    for (const n of start) nodes.set(key(n), n);
    for (const e of edges) {
      nodes.set(`${e.fromDict}|${e.fromKind}|${e.fromRef}`, { framework: e.fromDict, kind: e.fromKind as Kind, ref: e.fromRef });
      nodes.set(`${e.toDict}|${e.toKind}|${e.toRef}`, { framework: e.toDict, kind: e.toKind as Kind, ref: e.toRef });
    }
    const frameworks = await ctx.prisma.framework.findMany({
      where: { id: { in: [...new Set([...nodes.values()].map((n) => n.framework))] } },
      select: { id: true, title: true },
      orderBy: { id: 'asc' },
    });
    return {
      origin,
      start,
      edges,
      titles: await titlesOf(ctx, [...nodes.values()]),
      frameworkTitles: Object.fromEntries(frameworks.map((f) => [f.id, f.title])),
    };
  },
  decide(_input, facts, r: typeof rules) {
    const own = facts.origin.framework;
    const startKeys = new Set(facts.start.map(key));
    const best = new Map<string, Reach>();
    const firstHop: Reach[] = [];
    for (const s of facts.start)
      for (const e of facts.edges) {
        const st = step(e, s);
        if (!st || e.strength < r.minStrength) continue;
        if (startKeys.has(key(st.to)) || st.to.framework === own) continue;
        const coverage = r.coverage[st.relationship];
        if (!coverage) continue;
        const reach: Reach = {
          node: st.to,
          relationship: st.relationship,
          strength: e.strength,
          coverage,
          hops: 1,
          via: null,
          crosswalks: [e.crosswalkId],
        };
        firstHop.push(reach);
        if (better(reach, best.get(key(st.to)))) best.set(key(st.to), reach);
      }
    if (r.maxHops >= 2)
      for (const mid of firstHop) {
        if (mid.strength < r.minStrengthSecondHop) continue;
        for (const e of facts.edges) {
          const st = step(e, mid.node);
          if (!st || e.strength < r.minStrengthSecondHop) continue;
          const k = key(st.to);
          if (startKeys.has(k) || st.to.framework === own || st.to.framework === mid.node.framework) continue;
          const relationship = r.compose[mid.relationship]?.[st.relationship];
          const coverage = relationship ? r.coverage[relationship] : undefined;
          if (!relationship || !coverage) continue;
          const reach: Reach = {
            node: st.to,
            relationship,
            strength: Math.min(mid.strength, e.strength),
            coverage,
            hops: 2,
            via: mid.node,
            crosswalks: [mid.crosswalks[0] as string, e.crosswalkId],
          };
          const prev = best.get(k);
          // A direct mapping is kept over a two-step one unless the latter covers more.
          if (prev?.hops === 1 && !(reach.coverage === 'full' && prev.coverage === 'partial')) continue;
          if (better(reach, prev)) best.set(k, reach);
        }
      }
    const title = (n: Node) => facts.titles[key(n)] ?? null;
    const req = (n: Node) => ({ framework: n.framework, kind: n.kind, ref: n.ref, title: title(n) });
    const groups = new Map<string, Reach[]>();
    for (const k of [...best.keys()].sort(cmp)) {
      const reach = best.get(k) as Reach;
      groups.set(reach.node.framework, [...(groups.get(reach.node.framework) ?? []), reach]);
    }
    const frameworks = [...groups.entries()]
      .map(([framework, list]) => ({
        framework,
        title: facts.frameworkTitles[framework] ?? framework,
        coverage: (list.some((x) => x.coverage === 'full') ? 'full' : 'partial') as 'full' | 'partial',
        requirements: list
          .sort(
            (a, b) =>
              (a.coverage === b.coverage ? 0 : a.coverage === 'full' ? -1 : 1) ||
              b.strength - a.strength ||
              a.hops - b.hops ||
              cmp(a.node.ref, b.node.ref),
          )
          .map((x) => ({
            ...req(x.node),
            relationship: x.relationship,
            strength: x.strength,
            coverage: x.coverage,
            hops: x.hops,
            via: x.via ? req(x.via) : null,
            crosswalks: x.crosswalks,
          })),
      }))
      .sort((a, b) => (a.coverage === b.coverage ? 0 : a.coverage === 'full' ? -1 : 1) || cmp(a.framework, b.framework));
    const all = frameworks.flatMap((f) => f.requirements);
    return {
      control: { ...req(facts.origin), clauseRefs: facts.origin.clauseRefs },
      frameworks,
      totals: {
        frameworks: frameworks.length,
        requirements: all.length,
        full: all.filter((x) => x.coverage === 'full').length,
        partial: all.filter((x) => x.coverage === 'partial').length,
      },
    };
  },
});
