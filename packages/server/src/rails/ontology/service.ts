import type { OntologyNode, OntologyResolution } from '@svc/contract';
import type { z } from 'zod';
import type { Prisma } from '../../db/client.ts';
import { decodeCursor, toPage } from '../../db/pagination.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';

type Node = z.infer<typeof OntologyNode>;
type Layer = Node['layer'];
type Page = { data: Node[]; cursor: string | null };

/** Dictionaries whose controls also form the AI-governance layer. */
export const AI_DICTIONARIES: readonly string[] = ['eu-ai-act', 'iso-iec-42001', 'nist-ai-rmf', 'colorado-ai-act'];
/** How far a resolve walk goes. */
const MAX_STEPS = 4;

/** A set of nodes keyed by id, with link helpers that keep links symmetric. */
class Graph {
  readonly nodes = new Map<string, Node>();
  add(n: Omit<Node, 'object' | 'id' | 'links'>): Node {
    const id = `${n.layer}:${n.key}`;
    const existing = this.nodes.get(id);
    if (existing) return existing;
    const node: Node = { object: 'svc.ontology.node', id, links: [], ...n };
    this.nodes.set(id, node);
    return node;
  }
  link(a: string, b: string): void {
    const na = this.nodes.get(a);
    const nb = this.nodes.get(b);
    if (!na || !nb || a === b) return;
    if (!na.links.includes(b)) na.links.push(b);
    if (!nb.links.includes(a)) nb.links.push(a);
  }
  byLayer(layer: Layer): Node[] {
    return [...this.nodes.values()].filter((n) => n.layer === layer);
  }
}

/** The dictionary layers: authorities, obligations, controls and AI governance (latest versions). */
async function dictionaryGraph(prisma: Prisma): Promise<Graph> {
  const g = new Graph();
  const frameworks = await prisma.framework.findMany({ orderBy: { id: 'asc' } });
  const keys = frameworks.map((f) => `${f.id}@${f.latestVersion}`);
  const [obligations, controls] = await Promise.all([
    prisma.frameworkObligation.findMany({ where: { versionKey: { in: keys } }, orderBy: [{ versionKey: 'asc' }, { ord: 'asc' }] }),
    prisma.frameworkControl.findMany({ where: { versionKey: { in: keys } }, orderBy: [{ versionKey: 'asc' }, { ord: 'asc' }] }),
  ]);
  for (const f of frameworks) {
    g.add({
      layer: 'authority',
      key: f.id,
      title: f.title,
      framework: f.id,
      attributes: {
        publisher: f.publisher,
        jurisdiction: f.jurisdiction,
        kind: f.kind,
        version: f.latestVersion,
        aiGovernance: AI_DICTIONARIES.includes(f.id) ? 'true' : 'false',
      },
    });
  }
  const fw = (versionKey: string) => versionKey.split('@')[0] as string;
  const obligationsByClause = new Map<string, string[]>();
  for (const o of obligations) {
    const f = fw(o.versionKey);
    const node = g.add({
      layer: 'obligation',
      key: `${f}/${o.id}`,
      title: o.title,
      framework: f,
      attributes: { clauseRef: o.clauseRef, actor: o.actor, applicableFrom: o.applicableFrom.toISOString() },
    });
    g.link(node.id, `authority:${f}`);
    const k = `${f}|${o.clauseRef}`;
    obligationsByClause.set(k, [...(obligationsByClause.get(k) ?? []), node.id]);
  }
  for (const c of controls) {
    const f = fw(c.versionKey);
    const node = g.add({
      layer: 'control',
      key: c.id,
      title: c.title,
      framework: f,
      attributes: { category: c.category, clauseRefs: c.clauseRefs },
    });
    if (node.framework !== f) continue; // a control id two dictionaries share: the first one keeps the node
    g.link(node.id, `authority:${f}`);
    for (const ref of c.clauseRefs) for (const o of obligationsByClause.get(`${f}|${ref}`) ?? []) g.link(node.id, o);
    if (AI_DICTIONARIES.includes(f)) {
      const ai = g.add({ layer: 'ai-governance', key: `${f}/${c.id}`, title: c.title, framework: f, attributes: { category: c.category } });
      g.link(ai.id, node.id);
      g.link(ai.id, `authority:${f}`);
    }
  }
  return g;
}

/** Adds the tenant layers: evidence, architecture, policy-as-code and audit trail. */
async function addTenantLayers(prisma: Prisma, g: Graph, tenantId: string): Promise<void> {
  const db = scopeToTenant(prisma, tenantId);
  const [evidence, assessments] = await Promise.all([
    db.evidence.findMany({
      select: { id: true, title: true, kind: true, systemId: true, controlIds: true, collectedAt: true },
      orderBy: { id: 'asc' },
    }),
    db.assessment.findMany({ select: { id: true, type: true, systemId: true }, orderBy: { id: 'asc' } }),
  ]);
  const systems = new Map<string, string[]>();
  for (const e of evidence) if (e.systemId && !systems.has(e.systemId)) systems.set(e.systemId, []);
  for (const a of assessments) systems.set(a.systemId, [...(systems.get(a.systemId) ?? []), a.id]);
  for (const [systemId, asm] of systems) {
    g.add({ layer: 'architecture', key: systemId, title: systemId, framework: null, attributes: { assessments: asm } });
  }
  for (const e of evidence) {
    const node = g.add({
      layer: 'evidence',
      key: e.id,
      title: e.title,
      framework: null,
      attributes: { kind: e.kind, controlIds: e.controlIds, systemId: e.systemId, collectedAt: e.collectedAt.toISOString() },
    });
    for (const c of e.controlIds) g.link(node.id, `control:${c}`);
    if (e.systemId) g.link(node.id, `architecture:${e.systemId}`);
    if (e.kind === 'policy') {
      const policy = g.add({ layer: 'policy', key: e.id, title: e.title, framework: null, attributes: { controlIds: e.controlIds } });
      g.link(policy.id, node.id);
      for (const c of e.controlIds) g.link(policy.id, `control:${c}`);
    }
  }
  const touched = [...evidence.map((e) => e.id), ...systems.keys()];
  if (touched.length === 0) return;
  const events = await db.auditEvent.findMany({
    where: { resourceId: { in: touched } },
    select: { id: true, action: true, resourceType: true, resourceId: true, actor: true, createdAt: true },
    orderBy: { seq: 'asc' },
  });
  for (const ev of events) {
    const node = g.add({
      layer: 'audit',
      key: ev.id,
      title: `${ev.action} ${ev.resourceId}`,
      framework: null,
      attributes: {
        action: ev.action,
        resourceType: ev.resourceType,
        resourceId: ev.resourceId,
        actor: ev.actor,
        at: ev.createdAt.toISOString(),
      },
    });
    g.link(node.id, `evidence:${ev.resourceId}`);
    g.link(node.id, `architecture:${ev.resourceId}`);
  }
}

/** Node list of one layer sorted by id, cut into a page after the cursor. */
function page(nodes: Node[], query: { limit: number; cursor?: string }): Page {
  const after = decodeCursor(query.cursor, 'string');
  const sorted = nodes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const rest = after === undefined ? sorted : sorted.filter((n) => n.id > after);
  return toPage(
    rest.slice(0, query.limit + 1),
    query.limit,
    (n) => n.id,
    (n) => n,
  );
}

/** Public dictionary layers: links to tenant nodes never appear, since none are built. */
export async function listDictionaryLayer(
  prisma: Prisma,
  layer: 'authority' | 'obligation' | 'control',
  query: { limit: number; cursor?: string; framework?: string },
): Promise<Page> {
  const g = await dictionaryGraph(prisma);
  const nodes = g.byLayer(layer).filter((n) => !query.framework || n.framework === query.framework);
  return page(nodes, query);
}

export async function listTenantLayer(
  prisma: Prisma,
  tenantId: string,
  layer: 'evidence' | 'architecture' | 'policy',
  query: { limit: number; cursor?: string },
): Promise<Page> {
  const g = new Graph();
  await addTenantLayers(prisma, g, tenantId);
  // Links to dictionary nodes are kept as ids even though those nodes are not built here.
  if (layer !== 'architecture') {
    for (const n of g.byLayer(layer)) {
      const ids = (n.attributes.controlIds as string[] | undefined) ?? [];
      for (const c of ids) if (!n.links.includes(`control:${c}`)) n.links.push(`control:${c}`);
    }
  }
  return page(g.byLayer(layer), query);
}

/** Breadth-first walk from a node; authority hubs and the start's own layer are not walked through. */
export async function resolve(prisma: Prisma, tenantId: string, nodeId: string): Promise<z.infer<typeof OntologyResolution>> {
  const g = await dictionaryGraph(prisma);
  await addTenantLayers(prisma, g, tenantId);
  const start = g.nodes.get(nodeId);
  if (!start) throw new ApiError('not_found', `Node ${nodeId} was not found in the ontology.`);
  const paths = new Map<string, string[]>([[start.id, [start.id]]]);
  let frontier = [start.id];
  for (let step = 0; step < MAX_STEPS && frontier.length > 0; step++) {
    const next: string[] = [];
    for (const id of frontier) {
      const node = g.nodes.get(id) as Node;
      if (id !== start.id && (node.layer === 'authority' || node.layer === start.layer)) continue;
      for (const l of node.links) {
        if (paths.has(l)) continue;
        paths.set(l, [...(paths.get(id) as string[]), l]);
        next.push(l);
      }
    }
    frontier = next;
  }
  const layers: Record<string, (Node & { path: string[] })[]> = {};
  for (const [id, path] of paths) {
    const node = g.nodes.get(id) as Node;
    if (node.layer === start.layer) continue;
    const list = layers[node.layer] ?? [];
    list.push({ ...node, path });
    layers[node.layer] = list;
  }
  for (const list of Object.values(layers)) list.sort((a, b) => a.path.length - b.path.length || (a.id < b.id ? -1 : 1));
  return { object: 'svc.ontology.resolution', node: start, layers };
}
