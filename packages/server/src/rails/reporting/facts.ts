/**
 * The facts a report is built from: the tenant's records as a plain, typed, JSON-only object.
 * This is the only module of the report engine that reads the database; the block builders
 * (blocks.ts) and the composition (compose.ts) are pure functions of what it returns.
 */
import type { Prisma } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import { iso, isoOrNull } from '../../platform/render.ts';
import { questionSetOf } from '../compliance/assessment-work.ts';
import { latestApprovedGaps } from '../compliance/gap-status.ts';
import { requestClocksOf } from '../dsar/clocks.ts';
import { point } from '../risk-register/service.ts';

/** The facts as callers carry them (opaque); `ReportFactsData` is their shape. */
export type ReportFacts = Record<string, unknown> & { asOf: string };

export interface FactControl {
  id: string;
  frameworkId: string;
  title: string;
  clauseRefs: string[];
}
export interface FactFramework {
  id: string;
  title: string;
  versionKey: string;
  controlCount: number;
  /**
   * The latest gap analysis of the framework approved by the report date (of the report's AI
   * system when it names one): its id, system, approval and the requirement status of each
   * control of the activated version it assessed, by control id. Null (or absent) when none is.
   */
  gapAnalysis?: FactGapAnalysis | null;
}
export interface FactGapAnalysis {
  assessmentId: string;
  systemId: string;
  approvedAt: string;
  statuses: Record<string, string>;
}
export interface FactEvidence {
  id: string;
  title: string;
  kind: string;
  systemId: string | null;
  controlIds: string[];
  collectedAt: string;
  expiresAt: string | null;
  sha256: boolean;
}
export interface FactFinding {
  id: string;
  title: string;
  severity: string;
  status: string;
  controlId: string | null;
  systemId: string | null;
  createdAt: string;
  closedAt: string | null;
}
export interface FactAssessment {
  id: string;
  type: string;
  systemId: string;
  title: string | null;
  status: string;
  completion: number;
  createdAt: string;
}
export interface FactObligation {
  id: string;
  frameworkId: string;
  clauseRef: string;
  title: string;
  status: string;
  dueDate: string;
}
export interface FactRisk {
  id: string;
  title: string;
  domain: string;
  status: string;
  inherentScore: number;
  residualScore: number;
  residualRating: string;
  controlIds: string[];
  plannedTreatments: number;
  signedOff: boolean;
  createdAt: string;
}
export interface FactSystemProfile {
  name: string;
  purpose: string;
  provider: string;
  role: string;
  model: string | null;
  generalPurposeModel: boolean;
  transparencyFlags: string[];
}
/** One answered (or open) question of an assessment document. */
export interface FactDocumentQuestion {
  key: string;
  text: string;
  citation: string;
  required: boolean;
  answer: { value: string | number | null; notes: string | null; evidenceIds: string[]; by: string; at: string } | null;
}
/** The assessment a document report (FRIA, DPIA) renders: its record, its stages with their questions and answers, its evidence. */
export interface FactAssessmentDocument {
  id: string;
  type: string;
  title: string | null;
  systemId: string;
  revision: number;
  status: string;
  dictionaryVersion: string | null;
  recipeVersion: string | null;
  submittedBy: string | null;
  submittedAt: string | null;
  approvedBy: string | null;
  approvedAt: string | null;
  answersHash: string | null;
  stages: { key: string; title: string; citation: string | null; questions: FactDocumentQuestion[] }[];
  /** The evidence the answers cite, by id (with the SHA-256 the record holds). */
  evidence: { id: string; title: string; sha256: string | null; collectedAt: string; expiresAt: string | null }[];
}
export interface ReportFactsData {
  asOf: string;
  tenantId: string;
  systemId: string | null;
  engagementId: string | null;
  system: { id: string; profile: FactSystemProfile | null } | null;
  systemIds: string[];
  frameworks: FactFramework[];
  controls: FactControl[];
  evidence: FactEvidence[];
  findings: FactFinding[];
  assessments: FactAssessment[];
  obligations: FactObligation[];
  risks: FactRisk[];
  signOffs: { id: string; riskId: string; signerId: string; statement: string | null; residualScore: number; createdAt: string }[];
  attestations: {
    id: string;
    subjectType: string;
    subjectId: string;
    attesterName: string;
    attesterTitle: string | null;
    attestedAt: string;
  }[];
  incidents: { id: string; title: string; status: string; regimes: string[]; knownAt: string; closedAt: string | null }[];
  dsars: {
    id: string;
    regime: string;
    kind: string;
    status: string;
    receivedAt: string;
    dueDate: string | null;
    closedAt: string | null;
  }[];
  vendors: { id: string; name: string; criticality: string; status: string; riskScore: number; dataAccess: string[] }[];
  certifications: { id: string; name: string; issuer: string; validFrom: string; validUntil: string | null }[];
  subProcessors: { id: string; name: string; purpose: string; region: string }[];
  engagements: {
    id: string;
    listingId: string;
    firmId: string;
    shareRateBps: number;
    status: string;
    createdAt: string;
    endedAt: string | null;
  }[];
  trainingModules: { id: string; title: string; requiredForRoleIds: string[]; validityDays: number | null; frameworkRefs: string[] }[];
  trainingRecords: {
    id: string;
    moduleId: string;
    userId: string;
    userName: string;
    moduleTitle: string;
    completedAt: string;
    score: number | null;
    expiresAt: string | null;
    certificateId: string;
  }[];
  /** Decisions per agent; null when the decisions table is not there. */
  agentDecisions: { agent: string; count: number }[] | null;
  /** The assessment of a document report (`assessmentId` input); absent or null otherwise. */
  assessment?: FactAssessmentDocument | null;
}

const byId = <T extends { id: string }>(a: T, b: T): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const sortedStrings = (xs: readonly string[]): string[] => [...new Set(xs)].sort();

const TRANSPARENCY_FLAGS = [
  'interactsWithPeople',
  'generatesSyntheticContent',
  'emotionRecognition',
  'biometricCategorisation',
  'deepFake',
  'publicInterestText',
] as const;

/**
 * Reads what the report needs from the tenant's records (ordered, JSON only). An AI system is
 * known to the tenant by the `systemId` its profile, assessments, evidence or findings carry;
 * a `systemId` none of them names is a 404.
 */
export async function gatherReportFacts(
  prisma: Prisma,
  tenantId: string,
  input: { template?: string; systemId?: string | null; engagementId?: string | null; [k: string]: unknown },
  now: Date,
): Promise<ReportFacts> {
  const db = scopeToTenant(prisma, tenantId);
  const systemId = input.systemId ?? null;
  const engagementId = input.engagementId ?? null;
  const [
    activations,
    evidence,
    findings,
    assessments,
    obligations,
    risks,
    treatments,
    signOffs,
    attestations,
    incidents,
    dsars,
    vendors,
    certifications,
    subProcessors,
    engagements,
    modules,
    records,
    profiles,
  ] = await Promise.all([
    db.frameworkActivation.findMany({ orderBy: { id: 'asc' } }),
    db.evidence.findMany({ orderBy: { id: 'asc' } }),
    db.selfAuditFinding.findMany({ orderBy: { id: 'asc' } }),
    db.assessment.findMany({ orderBy: { id: 'asc' } }),
    db.obligation.findMany({ orderBy: { id: 'asc' } }),
    db.riskRegisterRisk.findMany({ orderBy: { id: 'asc' } }),
    db.riskTreatment.findMany({ orderBy: { id: 'asc' } }),
    db.riskSignOff.findMany({ orderBy: { id: 'asc' } }),
    db.attestation.findMany({ orderBy: { id: 'asc' } }),
    db.incidentDisclosure.findMany({ orderBy: { id: 'asc' } }),
    db.dsarRequest.findMany({ orderBy: { id: 'asc' } }),
    db.vendorRiskVendor.findMany({ orderBy: { id: 'asc' } }),
    db.trustCertification.findMany({ orderBy: { id: 'asc' } }),
    db.trustSubProcessor.findMany({ orderBy: { id: 'asc' } }),
    db.marketplaceEngagement.findMany({ orderBy: { id: 'asc' } }),
    db.trainingModule.findMany({ orderBy: { id: 'asc' } }),
    db.trainingRecord.findMany({ orderBy: { id: 'asc' } }),
    db.publicDisclosureProfile.findMany({ orderBy: { id: 'asc' } }),
  ]);

  const systemIds = sortedStrings([
    ...profiles.map((p) => p.systemId),
    ...assessments.map((a) => a.systemId),
    ...evidence.flatMap((e) => (e.systemId ? [e.systemId] : [])),
    ...findings.flatMap((f) => (f.systemId ? [f.systemId] : [])),
  ]);
  if (systemId !== null && !systemIds.includes(systemId)) {
    throw new ApiError(
      'not_found',
      `AI system ${systemId} was not found: no profile, assessment, evidence or finding of this tenant names it.`,
    );
  }
  if (engagementId !== null && !engagements.some((e) => e.id === engagementId)) {
    throw new ApiError('not_found', `Engagement ${engagementId} was not found.`);
  }

  // Framework dictionaries: the activated versions, their control counts, and the controls the
  // tenant's records cite (titles and clauses for the per-clause and per-control tables).
  const versionKeys = activations.map((a) => a.versionKey);
  const cited = sortedStrings([
    ...evidence.flatMap((e) => e.controlIds),
    ...findings.flatMap((f) => (f.controlId ? [f.controlId] : [])),
    ...risks.flatMap((r) => r.controlIds),
  ]);
  const [frameworkRows, controlCounts, citedControls] = await Promise.all([
    prisma.framework.findMany({ where: { id: { in: activations.map((a) => a.frameworkId) } }, orderBy: { id: 'asc' } }),
    prisma.frameworkControl.groupBy({ by: ['versionKey'], where: { versionKey: { in: versionKeys } }, _count: { _all: true } }),
    cited.length === 0
      ? Promise.resolve([])
      : prisma.frameworkControl.findMany({ where: { id: { in: cited } }, orderBy: [{ id: 'asc' }, { versionKey: 'asc' }] }),
  ]);
  const frameworkOfKey = new Map(activations.map((a) => [a.versionKey, a.frameworkId]));
  const countOfKey = new Map(controlCounts.map((c) => [c.versionKey, c._count._all]));
  const gapOf = await gapAnalyses(prisma, db, activations, now, systemId);
  const frameworks: FactFramework[] = activations
    .map((a) => ({
      id: a.frameworkId,
      title: frameworkRows.find((f) => f.id === a.frameworkId)?.title ?? a.frameworkId,
      versionKey: a.versionKey,
      controlCount: countOfKey.get(a.versionKey) ?? 0,
      gapAnalysis: gapOf.get(a.frameworkId) ?? null,
    }))
    .sort(byId);
  // One row per cited control: the activated version's when there is one, else the first found.
  const controls: FactControl[] = [];
  for (const id of cited) {
    const rows = citedControls.filter((c) => c.id === id);
    const row = rows.find((c) => frameworkOfKey.has(c.versionKey)) ?? rows[0];
    if (!row) continue;
    controls.push({
      id,
      frameworkId: frameworkOfKey.get(row.versionKey) ?? row.versionKey.split('@')[0] ?? row.versionKey,
      title: row.title,
      clauseRefs: [...row.clauseRefs],
    });
  }

  const profile = systemId ? profiles.find((p) => p.systemId === systemId) : undefined;
  const system =
    systemId === null
      ? null
      : {
          id: systemId,
          profile: profile
            ? {
                name: profile.name,
                purpose: profile.purpose,
                provider: profile.provider,
                role: profile.role,
                model: profile.model,
                generalPurposeModel: profile.generalPurposeModel,
                transparencyFlags: TRANSPARENCY_FLAGS.filter((f) => profile[f]),
              }
            : null,
        };

  let agentDecisions: ReportFactsData['agentDecisions'] = null;
  try {
    // The decisions table arrives with the agents rail; a database without it reports none.
    const rows = await db.agentDecision.groupBy({ by: ['agent'], _count: { _all: true }, orderBy: { agent: 'asc' } });
    agentDecisions = rows.map((r) => ({ agent: r.agent, count: r._count._all }));
  } catch {
    agentDecisions = null;
  }

  const facts: ReportFactsData = {
    asOf: iso(now),
    tenantId,
    systemId,
    engagementId,
    system,
    systemIds,
    frameworks,
    controls,
    evidence: evidence.map((e) => ({
      id: e.id,
      title: e.title,
      kind: e.kind,
      systemId: e.systemId,
      controlIds: [...e.controlIds].sort(),
      collectedAt: iso(e.collectedAt),
      expiresAt: isoOrNull(e.expiresAt),
      sha256: e.sha256 !== null,
    })),
    findings: findings.map((f) => ({
      id: f.id,
      title: f.title,
      severity: f.severity,
      status: f.status,
      controlId: f.controlId,
      systemId: f.systemId,
      createdAt: iso(f.createdAt),
      closedAt: isoOrNull(f.closedAt),
    })),
    assessments: assessments.map((a) => ({
      id: a.id,
      type: a.type,
      systemId: a.systemId,
      title: a.title,
      status: a.status,
      completion: a.completion,
      createdAt: iso(a.createdAt),
    })),
    obligations: obligations.map((o) => ({
      id: o.id,
      frameworkId: o.frameworkId,
      clauseRef: o.clauseRef,
      title: o.title,
      status: o.status,
      dueDate: iso(o.dueDate),
    })),
    risks: risks.map((r) => {
      const residual = point(r.residualLikelihood, r.residualImpact);
      return {
        id: r.id,
        title: r.title,
        domain: r.domain,
        status: r.status,
        inherentScore: r.inherentLikelihood * r.inherentImpact,
        residualScore: residual.score,
        residualRating: residual.rating,
        controlIds: [...r.controlIds].sort(),
        plannedTreatments: treatments.filter((t) => t.riskId === r.id && t.status === 'planned').length,
        signedOff: signOffs.some((s) => s.riskId === r.id),
        createdAt: iso(r.createdAt),
      };
    }),
    signOffs: signOffs.map((s) => ({
      id: s.id,
      riskId: s.riskId,
      signerId: s.signerId,
      statement: s.statement,
      residualScore: s.residualLikelihood * s.residualImpact,
      createdAt: iso(s.createdAt),
    })),
    attestations: attestations.map((a) => ({
      id: a.id,
      subjectType: a.subjectType,
      subjectId: a.subjectId,
      attesterName: a.attesterName,
      attesterTitle: a.attesterTitle,
      attestedAt: iso(a.attestedAt),
    })),
    incidents: incidents.map((i) => ({
      id: i.id,
      title: i.title,
      status: i.status,
      regimes: [...i.regimes].sort(),
      knownAt: iso(i.knownAt),
      closedAt: isoOrNull(i.closedAt),
    })),
    dsars: dsars.map((d) => ({
      id: d.id,
      regime: d.regime,
      kind: d.kind,
      status: d.status,
      receivedAt: iso(d.receivedAt),
      dueDate: dsarDueDate(d),
      closedAt: isoOrNull(d.fulfilledAt ?? d.rejectedAt),
    })),
    vendors: vendors.map((v) => ({
      id: v.id,
      name: v.name,
      criticality: v.criticality,
      status: v.status,
      riskScore: v.riskScore,
      dataAccess: [...v.dataAccess].sort(),
    })),
    certifications: certifications.map((c) => ({
      id: c.id,
      name: c.name,
      issuer: c.issuer,
      validFrom: iso(c.validFrom),
      validUntil: isoOrNull(c.validUntil),
    })),
    subProcessors: subProcessors.map((s) => ({ id: s.id, name: s.name, purpose: s.purpose, region: s.region })),
    engagements: engagements.map((e) => ({
      id: e.id,
      listingId: e.listingId,
      firmId: e.firmId,
      shareRateBps: e.shareRateBps,
      status: e.status,
      createdAt: iso(e.createdAt),
      endedAt: isoOrNull(e.endedAt),
    })),
    trainingModules: modules.map((m) => ({
      id: m.id,
      title: m.title,
      requiredForRoleIds: [...m.requiredForRoleIds].sort(),
      validityDays: m.validityDays,
      frameworkRefs: frameworkRefsOf(m.frameworkRefs),
    })),
    trainingRecords: records.map((r) => ({
      id: r.id,
      moduleId: r.moduleId,
      userId: r.userId,
      userName: r.userName,
      moduleTitle: r.moduleTitle,
      completedAt: iso(r.completedAt),
      score: r.score,
      expiresAt: isoOrNull(r.expiresAt),
      certificateId: r.certificateId,
    })),
    agentDecisions,
    assessment: typeof input.assessmentId === 'string' ? await assessmentDocument(db, input.assessmentId) : null,
  };
  return facts as unknown as ReportFacts;
}

/**
 * The latest approved gap analysis of each activated framework as of the report date (the same
 * reading as the trust posture's), keeping the statuses of the activated version's controls.
 */
async function gapAnalyses(
  prisma: Prisma,
  db: ReturnType<typeof scopeToTenant>,
  activations: { frameworkId: string; versionKey: string }[],
  now: Date,
  systemId: string | null,
): Promise<Map<string, FactGapAnalysis>> {
  const out = new Map<string, FactGapAnalysis>();
  const gaps = await latestApprovedGaps(
    db,
    activations.map((a) => a.frameworkId),
    { asOf: now, systemId },
  );
  for (const a of activations) {
    const gap = gaps.get(a.frameworkId);
    if (!gap) continue;
    const assessed = [...gap.statuses.keys()];
    const known =
      assessed.length === 0
        ? []
        : await prisma.frameworkControl.findMany({ where: { versionKey: a.versionKey, id: { in: assessed } }, select: { id: true } });
    const statuses: Record<string, string> = {};
    for (const id of sortedStrings(known.map((c) => c.id))) statuses[id] = gap.statuses.get(id) as string;
    out.set(a.frameworkId, { assessmentId: gap.assessmentId, systemId: gap.systemId, approvedAt: iso(gap.approvedAt), statuses });
  }
  return out;
}

interface StoredQuestion {
  key: string;
  stage: string;
  text: string;
  required: boolean;
  source?: { citation?: string };
}

/**
 * The assessment a document renders, read from the assessment, its items and the evidence its
 * answers cite. An id the tenant does not hold is a 404 (the request was checked; this is a
 * record deleted since).
 */
async function assessmentDocument(db: ReturnType<typeof scopeToTenant>, id: string): Promise<FactAssessmentDocument> {
  const a = await db.assessment.findFirst({ where: { id } });
  if (!a) throw new ApiError('not_found', `Assessment ${id} was not found.`);
  const items = await db.assessmentItem.findMany({ where: { assessmentId: id }, orderBy: { questionKey: 'asc' } });
  const stored: { stages?: { key: string; title: string; citation: string | null }[]; questions?: StoredQuestion[] } = await questionSetOf(
    db,
    a,
  );
  const stageRows = Array.isArray(stored?.stages) ? stored.stages : [];
  const questions = Array.isArray(stored?.questions) ? stored.questions : [];
  const answered = new Map(
    items.filter((i) => i.version > 0 && i.answeredAt && (i.value !== null || i.evidenceIds.length > 0)).map((i) => [i.questionKey, i]),
  );
  const evidenceIds = sortedStrings([...answered.values()].flatMap((i) => i.evidenceIds));
  const evidence =
    evidenceIds.length === 0 ? [] : await db.evidence.findMany({ where: { id: { in: evidenceIds } }, orderBy: { id: 'asc' } });
  return {
    id: a.id,
    type: a.type,
    title: a.title,
    systemId: a.systemId,
    revision: a.revision,
    status: a.status,
    dictionaryVersion: a.dictionaryVersion,
    recipeVersion: a.recipeVersion,
    submittedBy: a.submittedBy,
    submittedAt: isoOrNull(a.submittedAt),
    approvedBy: a.approvedBy,
    approvedAt: isoOrNull(a.approvedAt),
    answersHash: a.answersHash,
    stages: stageRows.map((s) => ({
      key: s.key,
      title: s.title,
      citation: s.citation ?? null,
      questions: questions
        .filter((q) => q.stage === s.key)
        .map((q) => {
          const i = answered.get(q.key);
          return {
            key: q.key,
            text: q.text,
            citation: q.source?.citation ?? '',
            required: q.required !== false,
            answer: i
              ? {
                  value: i.value as string | number | null,
                  notes: i.notes,
                  evidenceIds: [...i.evidenceIds],
                  by: i.answeredBy ?? '',
                  at: iso(i.answeredAt as Date),
                }
              : null,
          };
        }),
    })),
    evidence: evidence.map((e) => ({
      id: e.id,
      title: e.title,
      sha256: e.sha256,
      collectedAt: iso(e.collectedAt),
      expiresAt: isoOrNull(e.expiresAt),
    })),
  };
}

/** The statutory due date of a request (its regime's clock, extension included); null if the rules do not know it. */
function dsarDueDate(d: {
  regime: string;
  kind: string;
  receivedAt: Date;
  extendedAt: Date | null;
  pauses?: unknown;
  verifications?: unknown;
}): string | null {
  try {
    return requestClocksOf(d).effectiveDueDate;
  } catch {
    return null;
  }
}

function frameworkRefsOf(json: unknown): string[] {
  if (!Array.isArray(json)) return [];
  return json
    .map((r) => {
      const ref = r as { framework?: unknown; reference?: unknown };
      return typeof ref.framework === 'string' ? `${ref.framework}${typeof ref.reference === 'string' ? ` ${ref.reference}` : ''}` : '';
    })
    .filter((s) => s !== '')
    .sort();
}
