import { createHash } from 'node:crypto';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import { isoOrNull } from '../../platform/render.ts';
import type { AgentContext, AgentEvent } from '../types.ts';

/** Helpers shared by the compliance-authoring agents. */

export const tenantDb = (ctx: AgentContext) => scopeToTenant(ctx.prisma, ctx.tenantId);
export type TenantDb = ReturnType<typeof tenantDb>;

/** 422 naming the field, for an input the records refuse. */
export { invalid } from '../../errors.ts';
export const iso = isoOrNull;

export const notFound = (message: string, field?: string) =>
  new ApiError('not_found', message, field ? [{ field, issue: 'not_found' }] : undefined);

/** Code-point order, the same on every machine (localeCompare is locale-dependent). */
export const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
export const byId = <T extends { id: string }>(a: T, b: T) => cmp(a.id, b.id);
export const sortedUnique = (xs: Iterable<string>) => [...new Set(xs)].sort(cmp);
export const round = (x: number, digits = 1) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};
export const percent = (part: number, whole: number) => (whole === 0 ? 0 : round((part / whole) * 100));

/** JSON with object keys sorted at every level: the bytes a hash is taken over. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v as Record<string, unknown>)
      .sort(cmp)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v ?? null);
}
export const sha256 = (v: unknown) => createHash('sha256').update(canonical(v)).digest('hex');

/** Lower-case text with only letters, digits and single spaces: what keyword rules match against. */
export const normalise = (s: string | null | undefined) =>
  (s ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
export const mentionsAny = (text: string, keywords: readonly string[]) => {
  const t = ` ${normalise(text)} `;
  return keywords.some((k) => t.includes(` ${normalise(k)} `));
};

/** The event name an event rule matched: the action when it has one (`policy.published`), else the kind. */
export function eventMatches(event: AgentEvent, prefix: string): boolean {
  return [event.action, event.kind].some((x) => typeof x === 'string' && x.startsWith(prefix));
}
export const attr = (event: AgentEvent, key: string): string | undefined => {
  const v = event.attributes?.[key];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
};

/** A crosswalk edge as an agent's facts hold it: the stored row without its database columns. */
export interface EdgeFact {
  crosswalkId: string;
  ord: number;
  fromDict: string;
  fromKind: string;
  fromRef: string;
  toDict: string;
  toKind: string;
  toRef: string;
  relationship: string;
  strength: number;
}

export const edgeFact = (e: EdgeFact): EdgeFact => ({
  crosswalkId: e.crosswalkId,
  ord: e.ord,
  fromDict: e.fromDict,
  fromKind: e.fromKind,
  fromRef: e.fromRef,
  toDict: e.toDict,
  toKind: e.toKind,
  toRef: e.toRef,
  relationship: e.relationship,
  strength: e.strength,
});

/**
 * `<id>@<version>` of every dictionary as the tenant's pinned bundle has it, so a decision reads
 * the content it will be replayed against; the latest version for a dictionary the pin does not
 * hold or whose pinned version is not loaded.
 */
export async function pinnedKeys(ctx: AgentContext): Promise<Map<string, string>> {
  const [rows, loaded] = await Promise.all([
    ctx.prisma.framework.findMany({ select: { id: true, latestVersion: true }, orderBy: { id: 'asc' } }),
    ctx.prisma.frameworkVersion.findMany({ select: { key: true } }),
  ]);
  const present = new Set(loaded.map((v) => v.key));
  return new Map(
    rows.map((f) => {
      const pinned = ctx.versionOf(f.id);
      return [f.id, present.has(pinned) ? pinned : `${f.id}@${f.latestVersion}`];
    }),
  );
}

/** The version key of a dictionary pinned for the tenant (the latest when not pinned); 404 for an unknown id. */
export async function dictionaryKey(ctx: AgentContext, id: string, field: string): Promise<string> {
  const fw = await ctx.prisma.framework.findUnique({ where: { id }, select: { id: true, latestVersion: true } });
  if (!fw) throw notFound(`Framework ${id} was not found.`, field);
  const key = ctx.versionOf(id);
  const exists = await ctx.prisma.frameworkVersion.findUnique({ where: { key }, select: { key: true } });
  return exists ? key : `${fw.id}@${fw.latestVersion}`;
}

/**
 * What the tenant records about an AI system: its disclosure profile, assessments, evidence,
 * RACI assignments and the risks its profile links. There is no separate system table: a system
 * exists for the tenant when any of these names it, and is a 404 otherwise.
 */
export async function systemRecords(ctx: AgentContext, systemId: string) {
  const db = tenantDb(ctx);
  const [profile, assessments, evidence, assignments] = await Promise.all([
    db.publicDisclosureProfile.findFirst({ where: { systemId } }),
    db.assessment.findMany({ where: { systemId }, orderBy: { id: 'asc' } }),
    db.evidence.findMany({ where: { systemId }, orderBy: { id: 'asc' } }),
    db.stakeholderAssignment.findMany({ where: { systemId, status: 'active' }, orderBy: { id: 'asc' } }),
  ]);
  if (!profile && assessments.length === 0 && evidence.length === 0 && assignments.length === 0)
    throw notFound(`AI system ${systemId} has no records for this tenant.`, 'systemId');
  const riskIds = profile?.riskIds ?? [];
  const risks = riskIds.length ? await db.riskRegisterRisk.findMany({ where: { id: { in: riskIds } }, orderBy: { id: 'asc' } }) : [];
  const treatments = risks.length
    ? await db.riskTreatment.findMany({ where: { riskId: { in: risks.map((r) => r.id) } }, orderBy: { id: 'asc' } })
    : [];
  const people = assignments.length
    ? await db.stakeholderUser.findMany({ where: { id: { in: assignments.map((a) => a.personId) } }, orderBy: { id: 'asc' } })
    : [];
  return {
    systemId,
    profile: profile
      ? {
          name: profile.name,
          purpose: profile.purpose,
          provider: profile.provider,
          role: profile.role,
          deployerContext: profile.deployerContext,
          model: profile.model,
          interactsWithPeople: profile.interactsWithPeople,
          generatesSyntheticContent: profile.generatesSyntheticContent,
          emotionRecognition: profile.emotionRecognition,
          biometricCategorisation: profile.biometricCategorisation,
          deepFake: profile.deepFake,
          generalPurposeModel: profile.generalPurposeModel,
        }
      : null,
    assessments: assessments.map((a) => ({
      id: a.id,
      type: a.type,
      status: a.status,
      jurisdiction: a.jurisdiction,
      completion: a.completion,
    })),
    evidence: evidence.map((e) => ({
      id: e.id,
      title: e.title,
      kind: e.kind,
      description: e.description,
      controlIds: [...e.controlIds].sort(cmp),
      collectedAt: iso(e.collectedAt) as string,
      expiresAt: iso(e.expiresAt),
    })),
    risks: risks.map((r) => ({
      id: r.id,
      title: r.title,
      description: r.description,
      domain: r.domain,
      status: r.status,
      residualLikelihood: r.residualLikelihood,
      residualImpact: r.residualImpact,
    })),
    treatments: treatments.map((t) => ({ id: t.id, riskId: t.riskId, type: t.type, description: t.description, status: t.status })),
    assignments: assignments.map((a) => ({
      id: a.id,
      personId: a.personId,
      personName: people.find((p) => p.id === a.personId)?.name ?? null,
      raci: a.raci,
      control: a.control,
    })),
  };
}
export type SystemFacts = Awaited<ReturnType<typeof systemRecords>>;

/** A section of a drafted document: filled from records by the agent's rules. */
export interface DraftSection {
  id: string;
  ref: string;
  title: string;
  status: 'filled' | 'partial' | 'missing';
  content: string[];
  sources: { type: string; id: string }[];
  hint: string;
}

/**
 * Fills a section from the parts a rule names: each part is a list of lines with their sources.
 * A section with every required part is `filled`, with some of them `partial`, with none `missing`.
 */
export function section(
  rule: { id: string; ref: string; title: string; hint: string },
  parts: { lines: string[]; sources: { type: string; id: string }[] }[],
): DraftSection {
  const present = parts.filter((p) => p.lines.length > 0);
  const status = present.length === 0 ? 'missing' : present.length === parts.length ? 'filled' : 'partial';
  const seen = new Set<string>();
  const sources = present
    .flatMap((p) => p.sources)
    .filter((s) => {
      const k = `${s.type}|${s.id}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  return { ...rule, status, content: present.flatMap((p) => p.lines), sources };
}

/** Share of sections filled, a partial one counting half. */
export const completeness = (sections: { status: string }[]) =>
  percent(
    sections.reduce((n, s) => n + (s.status === 'filled' ? 1 : s.status === 'partial' ? 0.5 : 0), 0),
    sections.length,
  );

/** Evidence of a system matching a keyword list or citing one of the controls, as section lines. */
export function evidenceLines(
  evidence: SystemFacts['evidence'],
  match: { keywords?: readonly string[]; controlIds?: readonly string[]; kinds?: readonly string[] },
) {
  const hits = evidence.filter(
    (e) =>
      (match.keywords && mentionsAny(`${e.title} ${e.description ?? ''}`, match.keywords)) ||
      (match.controlIds && e.controlIds.some((c) => match.controlIds?.includes(c))) ||
      match.kinds?.includes(e.kind) === true,
  );
  return {
    lines: hits.map((e) => `${e.title}${e.description ? `: ${e.description}` : ''} (evidence ${e.id}).`),
    sources: hits.map((e) => ({ type: 'evidence', id: e.id })),
  };
}
