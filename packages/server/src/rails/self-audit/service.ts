import {
  INDUSTRY_IDS,
  SELF_AUDIT_FRESHNESS_DAYS,
  SELF_AUDIT_POSTURE_WEIGHTS,
  SELF_AUDIT_SEVERITY_PENALTY,
  type SelfAuditDrift,
  SelfAuditFinding,
  type SelfAuditPosture,
  type SelfAuditRemediation,
  type selfAuditEvidenceLinks,
  type selfAuditFindings,
  type selfAuditRemediations,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid } from '../../errors.ts';
import type { SelfAuditFinding as FindingRow, SelfAuditRemediation as RemediationRow } from '../../generated/prisma/client.ts';
import type { Store, WriteContext } from '../../kit.ts';
import { lockKey, lockRecord, recorded } from '../../platform/records.ts';
import { iso, rendererOf } from '../../platform/render.ts';
import { onboardingProfile } from '../onboarding/service.ts';
import { byPriority, profileEntry, resolveProfile } from '../profiles/service.ts';

const DAY_MS = 86_400_000;
type Severity = keyof typeof SELF_AUDIT_SEVERITY_PENALTY;

// ---------------------------------------------------------------- controls and evidence

/** Control ids that are not in a framework version the tenant has activated. */
async function unknownControls(db: Tx, shared: Tx, controlIds: readonly string[]): Promise<string[]> {
  const versions = (await db.frameworkActivation.findMany({ select: { versionKey: true } })).map((a) => a.versionKey);
  const found = versions.length
    ? await shared.frameworkControl.findMany({ where: { versionKey: { in: versions }, id: { in: [...controlIds] } }, select: { id: true } })
    : [];
  const known = new Set(found.map((c) => c.id));
  return controlIds.filter((id) => !known.has(id));
}

/** How an evidence record stands at `at`: expired, stale (collected before the freshness window) or fresh. */
function evidenceState(e: { collectedAt: Date; expiresAt: Date | null }, at: Date): 'expired' | 'stale' | 'fresh' {
  if (e.expiresAt !== null && e.expiresAt.getTime() <= at.getTime()) return 'expired';
  if (e.collectedAt.getTime() < at.getTime() - SELF_AUDIT_FRESHNESS_DAYS * DAY_MS) return 'stale';
  return 'fresh';
}

// ---------------------------------------------------------------- findings

export const renderFinding = rendererOf<FindingRow>()(SelfAuditFinding, {});

export const findingStore: Store<typeof selfAuditFindings> = {
  model: 'selfAuditFinding',
  render: renderFinding,
  create: async ({ db, shared, who, body }) => {
    if (body.controlId !== undefined && (await unknownControls(db, shared, [body.controlId])).length > 0) {
      throw invalid('controlId', `Control ${body.controlId} is not a control of a framework the tenant has activated.`);
    }
    return {
      title: body.title,
      description: body.description ?? null,
      severity: body.severity,
      status: 'open',
      controlId: body.controlId ?? null,
      systemId: body.systemId ?? null,
      closedAt: null,
      createdBy: who.actor,
    };
  },
  auditData: (f) => ({ title: f.title, severity: f.severity, controlId: f.controlId, systemId: f.systemId }),
};

// ---------------------------------------------------------------- remediations

export const remediationStore: Store<typeof selfAuditRemediations> = {
  model: 'selfAuditRemediation',
  create: async ({ db, who, body }) => {
    const [finding, owner] = await Promise.all([
      db.selfAuditFinding.findFirst({ where: { id: body.findingId }, select: { id: true } }),
      body.ownerId ? db.stakeholderUser.findFirst({ where: { id: body.ownerId }, select: { status: true } }) : undefined,
    ]);
    if (!finding) {
      throw invalid('findingId', `Finding ${body.findingId} does not exist in this tenant.`);
    }
    if (body.ownerId && owner?.status !== 'active') {
      throw invalid('ownerId', `Person ${body.ownerId} is not an active person of this tenant.`);
    }
    return {
      findingId: body.findingId,
      plan: body.plan,
      ownerId: body.ownerId ?? null,
      dueDate: body.dueDate ? new Date(body.dueDate) : null,
      status: 'open',
      resolvedAt: null,
      verifiedAt: null,
      createdBy: who.actor,
    };
  },
  // One remediation per open finding: checked with the finding locked, so two at once are one and a 409.
  prepare: async ({ tx, who, body }) => {
    await lockRecord(tx, 'self_audit_findings', who.tenantId, body.findingId);
    const db = scopeToTenant(tx, who.tenantId);
    const [finding, existing] = await Promise.all([
      db.selfAuditFinding.findFirst({ where: { id: body.findingId }, select: { status: true } }),
      db.selfAuditRemediation.findFirst({ where: { findingId: body.findingId }, select: { id: true, status: true } }),
    ]);
    if (existing) {
      throw new ApiError(
        'conflict',
        `Finding ${body.findingId} already has remediation ${existing.id} (${existing.status}); a finding has one remediation: reopen it instead.`,
        [{ field: 'findingId', issue: 'invalid_value', message: `remediation ${existing.id}` }],
      );
    }
    if (finding && finding.status !== 'open') {
      throw new ApiError('conflict', `Finding ${body.findingId} is ${finding.status}; only an open finding is remediated.`, [
        { field: 'findingId', issue: 'invalid_value', message: `finding is ${finding.status}` },
      ]);
    }
  },
  auditData: (r) => ({ findingId: r.findingId, ownerId: r.ownerId, dueDate: r.dueDate }),
  transitions: {
    resolve: { set: (_row, now) => ({ resolvedAt: now }) },
    // Needs a link to unexpired evidence; closes the finding.
    verify: {
      set: (_row, now) => ({ verifiedAt: now }),
      guard: async ({ tx, who, row }) => {
        const { id } = row as RemediationRow;
        const db = scopeToTenant(tx, who.tenantId);
        const links = await db.selfAuditEvidenceLink.findMany({
          where: { targetType: 'remediation', targetId: id },
          select: { evidenceId: true },
        });
        const valid = links.length
          ? await db.evidence.count({
              where: { id: { in: links.map((l) => l.evidenceId) }, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
            })
          : 0;
        if (valid === 0) {
          throw new ApiError(
            'conflict',
            `Remediation ${id} has no link to unexpired evidence; link the proof with POST /v1/self-audit/evidence before verifying.`,
            [{ field: 'evidence', issue: 'missing', message: `${links.length} linked, none unexpired` }],
          );
        }
      },
      after: findingFollows('closed'),
    },
    // Reopens a closed finding with it.
    reopen: { set: () => ({ resolvedAt: null, verifiedAt: null }), after: findingFollows('open') },
  },
};

/** The finding follows its remediation, in the same transaction: verified closes it, a reopen opens it again. */
function findingFollows(target: 'open' | 'closed') {
  return async ({ tx, who, record }: WriteContext<z.infer<typeof SelfAuditRemediation>>) => {
    const db = scopeToTenant(tx, who.tenantId);
    const finding = await db.selfAuditFinding.findFirst({ where: { id: record.findingId } });
    if (!finding || finding.status === target) return;
    const now = new Date();
    await db.selfAuditFinding.updateMany({
      where: { id: finding.id },
      data: { status: target, closedAt: target === 'closed' ? now : null, updatedAt: now },
    });
    await recorded(tx, who, renderFinding((await db.selfAuditFinding.findFirst({ where: { id: finding.id } })) as FindingRow), {
      action: target === 'closed' ? 'finding.closed' : 'finding.reopened',
      data: { from: finding.status, to: target, remediationId: record.id },
    });
  };
}

// ---------------------------------------------------------------- evidence links

export const evidenceLinkStore: Store<typeof selfAuditEvidenceLinks> = {
  model: 'selfAuditEvidenceLink',
  create: async ({ db, who, body }) => {
    const targetType = body.remediationId !== undefined ? 'remediation' : 'finding';
    const targetId = (body.remediationId ?? body.findingId) as string;
    const [evidence, finding, remediation] = await Promise.all([
      db.evidence.findFirst({ where: { id: body.evidenceId }, select: { id: true } }),
      body.findingId ? db.selfAuditFinding.findFirst({ where: { id: body.findingId }, select: { id: true } }) : undefined,
      body.remediationId
        ? db.selfAuditRemediation.findFirst({ where: { id: body.remediationId }, select: { findingId: true } })
        : undefined,
    ]);
    if (!evidence) {
      throw invalid('evidenceId', `Evidence ${body.evidenceId} does not exist in this tenant.`);
    }
    const findingId = targetType === 'finding' ? finding?.id : remediation?.findingId;
    if (!findingId) {
      const field = targetType === 'finding' ? 'findingId' : 'remediationId';
      throw invalid(field, `${targetType === 'finding' ? 'Finding' : 'Remediation'} ${targetId} does not exist in this tenant.`);
    }
    return { evidenceId: body.evidenceId, targetType, targetId, findingId, note: body.note ?? null, createdBy: who.actor };
  },
  // One link per evidence and target: checked under a lock on the pair, so two at once are one link and a 409.
  prepare: async ({ tx, who, body, data }) => {
    const targetId = data.targetId as string;
    await lockKey(tx, `svc.self_audit.evidence_link:${who.tenantId}:${body.evidenceId}:${targetId}`);
    const duplicate = await scopeToTenant(tx, who.tenantId).selfAuditEvidenceLink.findFirst({
      where: { evidenceId: body.evidenceId, targetId },
      select: { id: true },
    });
    if (duplicate) {
      throw new ApiError('conflict', `Evidence ${body.evidenceId} is already linked to ${targetId} (${duplicate.id}).`, [
        { field: 'evidenceId', issue: 'invalid_value', message: `already linked: ${duplicate.id}` },
      ]);
    }
  },
  auditData: (l) => ({ evidenceId: l.evidenceId, targetType: l.targetType, targetId: l.targetId }),
};

// ---------------------------------------------------------------- posture

const round2 = (n: number) => Math.round(n * 100) / 100;
const ratio = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

/** Coverage, freshness and the open-findings penalty, each with its counts, and the score they make. */
export async function posture(prisma: Prisma, tenantId: string): Promise<z.infer<typeof SelfAuditPosture>> {
  const db = scopeToTenant(prisma, tenantId);
  const at = new Date();
  const [activations, evidence, open] = await Promise.all([
    db.frameworkActivation.findMany({ select: { versionKey: true } }),
    db.evidence.findMany({ select: { controlIds: true, collectedAt: true, expiresAt: true } }),
    db.selfAuditFinding.findMany({ where: { status: 'open' }, select: { severity: true } }),
  ]);
  const versionKeys = activations.map((a) => a.versionKey);
  const controls = versionKeys.length
    ? await prisma.frameworkControl.findMany({ where: { versionKey: { in: versionKeys } }, select: { id: true } })
    : [];
  const activated = new Set(controls.map((c) => c.id));

  const evidenced = new Set<string>();
  const counted = { evidence: 0, fresh: 0, expired: 0, stale: 0 };
  for (const e of evidence) {
    const cited = e.controlIds.filter((c) => activated.has(c));
    if (cited.length === 0) continue;
    for (const c of cited) evidenced.add(c);
    counted.evidence++;
    counted[evidenceState(e, at)]++;
  }

  const openCounts = { low: 0, medium: 0, high: 0, critical: 0 };
  for (const f of open) if (f.severity in openCounts) openCounts[f.severity as Severity]++;
  const penalty = (Object.keys(openCounts) as Severity[]).reduce((n, s) => n + openCounts[s] * SELF_AUDIT_SEVERITY_PENALTY[s], 0);

  const coverageRatio = ratio(evidenced.size, activated.size);
  const freshnessRatio = ratio(counted.fresh, counted.evidence);
  const coveragePoints = round2(SELF_AUDIT_POSTURE_WEIGHTS.coverage * coverageRatio);
  const freshnessPoints = round2(SELF_AUDIT_POSTURE_WEIGHTS.freshness * freshnessRatio);
  const score = Math.min(100, Math.max(0, Math.round(coveragePoints + freshnessPoints - penalty)));
  return {
    object: 'svc.self_audit.posture',
    score,
    parts: {
      coverage: {
        weight: SELF_AUDIT_POSTURE_WEIGHTS.coverage,
        controls: activated.size,
        evidencedControls: evidenced.size,
        ratio: coverageRatio,
        points: coveragePoints,
      },
      freshness: {
        weight: SELF_AUDIT_POSTURE_WEIGHTS.freshness,
        windowDays: SELF_AUDIT_FRESHNESS_DAYS,
        ...counted,
        ratio: freshnessRatio,
        points: freshnessPoints,
      },
      findings: { weights: { ...SELF_AUDIT_SEVERITY_PENALTY }, open: openCounts, penalty },
    },
    computedAt: iso(at),
  };
}

// ---------------------------------------------------------------- drift

type SelfAuditDriftItem = z.infer<typeof SelfAuditDrift>['data'][number];
type Industry = (typeof INDUSTRY_IDS)[number];

/** The profile asked for, or that of the tenant's onboarding kickoff (the one in progress, else the latest); null when neither. */
async function driftProfile(db: Tx, profile: string | undefined): Promise<{ profile: Industry; source: 'query' | 'onboarding' } | null> {
  if (profile !== undefined) return { profile: profile as Industry, source: 'query' };
  const kicked = await onboardingProfile(db);
  if (!kicked || !(INDUSTRY_IDS as readonly string[]).includes(kicked)) return null;
  return { profile: kicked as Industry, source: 'onboarding' };
}

/** What a tenant without a profile gets: nothing to compare, said so. */
export const NO_PROFILE_NOTE =
  'No profile to compare against: pass `profile`, or start an onboarding with POST /v1/onboarding/kickoff. The baseline is empty.';

const TYPE_ORDER: Record<SelfAuditDriftItem['type'], number> = { 'baseline-divergence': 0, 'stale-evidence': 1, 'open-finding': 2 };

/** The tenant's divergences from the baseline of its profile, computed from its activations, evidence and findings. */
export async function drift(prisma: Prisma, tenantId: string, query: { profile?: string }): Promise<z.infer<typeof SelfAuditDrift>> {
  const db = scopeToTenant(prisma, tenantId);
  const at = new Date();
  const chosen = await driftProfile(db, query.profile);
  if (!chosen) {
    return {
      object: 'svc.self_audit.drift',
      profile: null,
      profileSource: 'none',
      note: NO_PROFILE_NOTE,
      baselineControls: 0,
      inLine: 0,
      freshnessDays: SELF_AUDIT_FRESHNESS_DAYS,
      data: [],
      computedAt: iso(at),
    };
  }
  const { profile, source } = chosen;
  const entry = profileEntry(profile);
  const { ctlById } = await resolveProfile(prisma, entry);
  const baseline = byPriority(entry.controlBaseline);
  const ids = baseline.map((b) => b.controlId);
  const [activations, evidence, openFindings] = await Promise.all([
    db.frameworkActivation.findMany({ select: { frameworkId: true } }),
    db.evidence.findMany({
      where: { controlIds: { hasSome: ids } },
      select: { id: true, controlIds: true, collectedAt: true, expiresAt: true },
      orderBy: { id: 'asc' },
    }),
    db.selfAuditFinding.findMany({
      where: { status: 'open', controlId: { in: ids } },
      select: { id: true, controlId: true },
      orderBy: { id: 'asc' },
    }),
  ]);
  const active = new Set(activations.map((a) => a.frameworkId));

  const items: SelfAuditDriftItem[] = [];
  for (const b of baseline) {
    const control = ctlById.get(b.controlId);
    const framework = control?.framework ?? '';
    const base = { control: b.controlId, framework, priority: b.priority, title: control?.title ?? b.controlId };
    const expected = `${framework} activated and ${b.controlId} backed by fresh evidence (unexpired, collected within ${SELF_AUDIT_FRESHNESS_DAYS} days)`;
    const cited = evidence.filter((e) => e.controlIds.includes(b.controlId));
    if (!active.has(framework)) {
      items.push({
        ...base,
        type: 'baseline-divergence',
        reason: 'framework_not_activated',
        expected,
        actual: `${framework} is not activated`,
        evidenceIds: [],
        findingIds: [],
      });
    } else if (cited.length === 0) {
      items.push({
        ...base,
        type: 'baseline-divergence',
        reason: 'no_evidence',
        expected,
        actual: `${framework} is activated but no evidence cites ${b.controlId}`,
        evidenceIds: [],
        findingIds: [],
      });
    } else if (!cited.some((e) => evidenceState(e, at) === 'fresh')) {
      const expired = cited.filter((e) => evidenceState(e, at) === 'expired').length;
      items.push({
        ...base,
        type: 'stale-evidence',
        reason: 'evidence_expired_or_stale',
        expected,
        actual: `all ${cited.length} evidence records citing ${b.controlId} are expired (${expired}) or older than ${SELF_AUDIT_FRESHNESS_DAYS} days (${cited.length - expired})`,
        evidenceIds: cited.map((e) => e.id),
        findingIds: [],
      });
    }
    const against = openFindings.filter((f) => f.controlId === b.controlId).map((f) => f.id);
    if (against.length > 0) {
      items.push({
        ...base,
        type: 'open-finding',
        reason: 'open_finding',
        expected: `no open self-audit finding against ${b.controlId}`,
        actual: `${against.length} open finding${against.length === 1 ? '' : 's'} against ${b.controlId}`,
        evidenceIds: [],
        findingIds: against,
      });
    }
  }
  items.sort((x, y) => x.priority - y.priority || x.control.localeCompare(y.control) || TYPE_ORDER[x.type] - TYPE_ORDER[y.type]);
  const divergent = new Set(items.map((i) => i.control));
  return {
    object: 'svc.self_audit.drift',
    profile,
    profileSource: source,
    note: null,
    baselineControls: baseline.length,
    inLine: baseline.filter((b) => !divergent.has(b.controlId)).length,
    freshnessDays: SELF_AUDIT_FRESHNESS_DAYS,
    data: items,
    computedAt: iso(at),
  };
}
