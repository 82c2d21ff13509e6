/**
 * The report engine: the 13 stakeholder report types as data, the facts a report is built from,
 * and the pure composition of those facts into titled sections. The reporting rail renders what
 * this composes into a PDF; the reporting agents (stakeholder-report and its facades) answer it as
 * JSON. One engine, many presets.
 *
 * What is data and what is code: the types, their audiences, reviewers and section recipes
 * (heading, introduction, which block fills it) and every threshold live in
 * `content/reports/types.json`; a block is code because it computes (a posture percentage, a
 * residual ranking, a month bucket, an overdue date).
 */
import { z } from 'zod';
import { dataFile } from '../../content/data-file.ts';
import type { Prisma } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import { requestClocks } from '../dsar/clocks.ts';
import { point } from '../risk-register/service.ts';

export interface ReportTable {
  columns: string[];
  rows: string[][];
}
export interface ReportSection {
  heading: string;
  paragraphs: string[];
  table?: ReportTable;
  /** The block of the recipe that computed the section (`posture`, `topRisks`, ...). */
  block?: string;
}
export interface ReportType {
  /** `regulator`, `board`, ... */
  id: string;
  title: string;
  audience: string;
  /** Id of the PDF template (`pdf/regulator@1`). */
  templateId: string;
  /** Input fields `POST /v1/reports/generate` needs for this type besides `template`. */
  requiredInputs: string[];
  /** Roles or stakeholder kinds that review the draft before anyone publishes it. */
  reviewers: string[];
}
export interface ComposedReport {
  template: string;
  /** Id of the PDF template the reporting rail renders the report with (`pdf/board@1`). */
  templateId: string;
  title: string;
  audience: string;
  tenantId: string;
  systemId: string | null;
  asOf: string;
  sections: ReportSection[];
  recommendedReviewers: string[];
  /** Always true: a report is a draft until a person publishes it. */
  draft: true;
}
export type ReportFacts = Record<string, unknown> & { asOf: string };

// ---------------------------------------------------------------- the catalogue (data)

const BLOCKS = [
  'system',
  'classification',
  'obligationsEvidence',
  'incidents',
  'posture',
  'topRisks',
  'trends',
  'decisionsNeeded',
  'shariahFraming',
  'ethicsGovernance',
  'dataUse',
  'findings',
  'controlEffectiveness',
  'signOffs',
  'clientRollups',
  'jointCustomers',
  'evidencePack',
  'partnerRevenue',
  'postureSummary',
  'certifications',
  'subProcessors',
  'overview',
  'dsars',
  'vendors',
  'agentDecisions',
  'evidenceGaps',
  'technicalTasks',
  'kpis',
  'engagements',
  'curriculum',
  'trainingCompletion',
  'trainingAttestations',
] as const;
export type ReportBlock = (typeof BLOCKS)[number];

const SectionRecipe = z.strictObject({ heading: z.string().min(1), block: z.enum(BLOCKS), intro: z.string().min(1) });
const TypeRecipe = z.strictObject({
  id: z.string().regex(/^[a-z][a-z-]*$/),
  title: z.string().min(1),
  audience: z.string().min(1),
  templateId: z.string().min(1),
  requiredInputs: z.array(z.string()),
  reviewers: z.array(z.string()).min(1),
  sections: z.array(SectionRecipe).min(1),
});
const ClassificationRule = z.strictObject({
  when: z.enum(['generalPurposeModel', 'friaAssessment', 'conformityAssessment', 'transparencyFlag', 'always']),
  label: z.string().min(1),
});
const Parameters = z.strictObject({
  topRisks: z.int().positive(),
  trendMonths: z.int().positive(),
  decisionResidualScore: z.int().min(1).max(25),
  decisionFindingSeverities: z.array(z.string()),
  certificationExpiringDays: z.int().nonnegative(),
  effectiveness: z.strictObject({ effectiveMinEvidence: z.int().positive(), ineffectiveOpenFindings: z.int().positive() }),
  severityOrder: z.array(z.string()).min(1),
  maxRows: z.int().positive(),
  classification: z.array(ClassificationRule).min(1),
  shariahFraming: z.array(z.string().min(1)).min(1),
});
export const ReportCatalogueSchema = z.strictObject({
  version: z.string(),
  description: z.string(),
  types: z.array(TypeRecipe).length(13),
  parameters: Parameters,
});
export type ReportCatalogue = z.infer<typeof ReportCatalogueSchema>;
export type ReportTypeRecipe = z.infer<typeof TypeRecipe>;
export type ReportParameters = z.infer<typeof Parameters>;

/** `content/reports/types.json`, checked with its schema (a broken file fails loudly). */
export const REPORT_CATALOGUE = dataFile('reports/types.json', ReportCatalogueSchema);

/** The catalogue a composition uses when its caller passes no rules: the content folder in use. */
export const reportCatalogue = (): ReportCatalogue => REPORT_CATALOGUE.current();

const typeOf = (r: ReportTypeRecipe): ReportType => ({
  id: r.id,
  title: r.title,
  audience: r.audience,
  templateId: r.templateId,
  requiredInputs: [...r.requiredInputs],
  reviewers: [...r.reviewers],
});

/** The 13 stakeholder types (`GET /v1/reports/types`), in the catalogue's order. */
export const REPORT_TYPES: ReportType[] = reportCatalogue().types.map(typeOf);

export const REPORT_TYPE_IDS: readonly string[] = REPORT_TYPES.map((t) => t.id);

// ---------------------------------------------------------------- facts

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
}

const iso = (d: Date): string => d.toISOString();
const isoOrNull = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
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
  const frameworks: FactFramework[] = activations
    .map((a) => ({
      id: a.frameworkId,
      title: frameworkRows.find((f) => f.id === a.frameworkId)?.title ?? a.frameworkId,
      versionKey: a.versionKey,
      controlCount: countOfKey.get(a.versionKey) ?? 0,
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
  };
  return facts as unknown as ReportFacts;
}

/** The statutory due date of a request (its regime's clock, extension included); null if the rules do not know it. */
function dsarDueDate(d: { regime: string; kind: string; receivedAt: Date; extendedAt: Date | null }): string | null {
  try {
    return requestClocks({ regime: d.regime as never, kind: d.kind as never, receivedAt: d.receivedAt, extendedAt: d.extendedAt })
      .effectiveDueDate;
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

// ---------------------------------------------------------------- composition (pure)

/** What a facade or caller may narrow: the blocks to keep (all of the recipe when absent). */
export interface ComposeOptions {
  catalogue?: ReportCatalogue;
  /** Keep only the sections computed by these blocks (a facade's section filter). */
  blocks?: readonly string[];
}

const pct = (n: number, d: number): string => (d === 0 ? 'n/a' : `${Math.round((n / d) * 1000) / 10}%`);
const day = (isoString: string | null): string => (isoString ? isoString.slice(0, 10) : '');
const yes = (b: boolean): string => (b ? 'yes' : 'no');
const DAY_MS = 86_400_000;

/** Pure: the same facts and rules give the same report. `rules` is a catalogue or `{ catalogue, blocks }`. */
export function composeReport(template: string, facts: ReportFacts, rules?: unknown): ComposedReport {
  const opts = composeOptions(rules);
  const catalogue = opts.catalogue ?? reportCatalogue();
  const recipe = catalogue.types.find((t) => t.id === template);
  if (!recipe) {
    const message = `Report template ${template} is not one of the ${catalogue.types.length} report types.`;
    throw new ApiError('validation_failed', message, [{ field: 'template', issue: 'invalid_value', message }]);
  }
  const f = facts as unknown as ReportFactsData;
  const ctx: BlockContext = { f, p: catalogue.parameters, view: scopeToSystem(f), asOfMs: Date.parse(f.asOf) };
  const keep = opts.blocks ? new Set(opts.blocks) : null;
  const sections = recipe.sections
    .filter((s) => keep === null || keep.has(s.block))
    .map((s) => {
      const built = BLOCK_BUILDERS[s.block](ctx);
      const section: ReportSection = { heading: s.heading, block: s.block, paragraphs: [s.intro, ...built.paragraphs] };
      if (built.table) section.table = built.table;
      return section;
    });
  return {
    template: recipe.id,
    templateId: recipe.templateId,
    title: recipe.title,
    audience: recipe.audience,
    tenantId: f.tenantId,
    systemId: f.systemId ?? null,
    asOf: f.asOf,
    sections,
    recommendedReviewers: [...recipe.reviewers],
    draft: true,
  };
}

function composeOptions(rules: unknown): ComposeOptions {
  if (rules === undefined || rules === null) return {};
  const r = rules as Record<string, unknown>;
  if (Array.isArray(r.types)) return { catalogue: rules as ReportCatalogue };
  return rules as ComposeOptions;
}

interface BlockContext {
  f: ReportFactsData;
  p: ReportParameters;
  /** The records of the report's system (and the organisation-wide ones) when a system is given, else all. */
  view: { evidence: FactEvidence[]; findings: FactFinding[]; assessments: FactAssessment[] };
  asOfMs: number;
}
interface Built {
  paragraphs: string[];
  table?: ReportTable;
}

function scopeToSystem(f: ReportFactsData): BlockContext['view'] {
  if (!f.systemId) return { evidence: f.evidence, findings: f.findings, assessments: f.assessments };
  const mine = (s: string | null) => s === null || s === f.systemId;
  return {
    evidence: f.evidence.filter((e) => mine(e.systemId)),
    findings: f.findings.filter((x) => mine(x.systemId)),
    assessments: f.assessments.filter((a) => a.systemId === f.systemId),
  };
}

function limit(ctx: BlockContext, rows: string[][]): { rows: string[][]; note: string[] } {
  if (rows.length <= ctx.p.maxRows) return { rows, note: [] };
  return { rows: rows.slice(0, ctx.p.maxRows), note: [`Showing the first ${ctx.p.maxRows} of ${rows.length} rows.`] };
}

function tableOf(ctx: BlockContext, columns: string[], rows: string[][], empty: string, lead: string[] = []): Built {
  if (rows.length === 0) return { paragraphs: [...lead, empty] };
  const l = limit(ctx, rows);
  return { paragraphs: [...lead, ...l.note], table: { columns, rows: l.rows } };
}

const isOpenFinding = (x: FactFinding) => x.status !== 'closed';
const isOpenRisk = (r: FactRisk) => r.status !== 'closed';
const evidenceCurrent = (ctx: BlockContext, e: FactEvidence) => e.expiresAt === null || Date.parse(e.expiresAt) > ctx.asOfMs;

/** Per framework: controls, controls with current evidence, share. */
function postureRows(ctx: BlockContext): { id: string; title: string; controls: number; evidenced: number }[] {
  const evidenced = new Set(ctx.view.evidence.filter((e) => evidenceCurrent(ctx, e)).flatMap((e) => e.controlIds));
  return ctx.f.frameworks.map((fw) => ({
    id: fw.id,
    title: fw.title,
    controls: fw.controlCount,
    evidenced: ctx.f.controls.filter((c) => c.frameworkId === fw.id && evidenced.has(c.id)).length,
  }));
}
function overallPosture(ctx: BlockContext): { controls: number; evidenced: number } {
  return postureRows(ctx).reduce((a, r) => ({ controls: a.controls + r.controls, evidenced: a.evidenced + r.evidenced }), {
    controls: 0,
    evidenced: 0,
  });
}

function rankedRisks(ctx: BlockContext): FactRisk[] {
  return ctx.f.risks
    .filter(isOpenRisk)
    .sort((a, b) => b.residualScore - a.residualScore || b.inherentScore - a.inherentScore || (a.id < b.id ? -1 : 1));
}

const severityRank = (ctx: BlockContext, s: string) => {
  const i = ctx.p.severityOrder.indexOf(s);
  return i < 0 ? ctx.p.severityOrder.length : i;
};

function overdueDsars(ctx: BlockContext) {
  return ctx.f.dsars.filter((d) => d.closedAt === null && d.dueDate !== null && Date.parse(`${d.dueDate}T23:59:59.999Z`) < ctx.asOfMs);
}

function trainingCompletion(ctx: BlockContext): { valid: number; total: number } {
  const valid = ctx.f.trainingRecords.filter((r) => r.expiresAt === null || Date.parse(r.expiresAt) > ctx.asOfMs).length;
  return { valid, total: ctx.f.trainingRecords.length };
}

function classify(ctx: BlockContext): string {
  const sys = ctx.f.system;
  const types = new Set(ctx.view.assessments.map((a) => a.type));
  for (const rule of ctx.p.classification) {
    const hit =
      rule.when === 'always' ||
      (rule.when === 'generalPurposeModel' && sys?.profile?.generalPurposeModel === true) ||
      (rule.when === 'friaAssessment' && types.has('fria')) ||
      (rule.when === 'conformityAssessment' && [...types].some((t) => t.includes('conformity'))) ||
      (rule.when === 'transparencyFlag' && (sys?.profile?.transparencyFlags.length ?? 0) > 0);
    if (hit) return rule.label;
  }
  return '';
}

/** Decision items: high residual risks not signed off, severe open findings, overdue requests, open incidents, expiring certifications. */
function decisionItems(ctx: BlockContext): string[][] {
  const items: string[][] = [];
  for (const r of rankedRisks(ctx)) {
    if (r.residualScore >= ctx.p.decisionResidualScore && !r.signedOff)
      items.push(['Accept or treat risk', r.title, `residual ${r.residualScore} (${r.residualRating}), not signed off`]);
  }
  const severe = new Set(ctx.p.decisionFindingSeverities);
  for (const x of ctx.view.findings
    .filter((x) => isOpenFinding(x) && severe.has(x.severity))
    .sort((a, b) => severityRank(ctx, a.severity) - severityRank(ctx, b.severity) || (a.id < b.id ? -1 : 1)))
    items.push(['Resource remediation', x.title, `${x.severity} finding open since ${day(x.createdAt)}`]);
  for (const d of overdueDsars(ctx)) items.push(['Escalate overdue request', `${d.regime} ${d.kind} request ${d.id}`, `due ${d.dueDate}`]);
  for (const i of ctx.f.incidents.filter((i) => i.closedAt === null))
    items.push(['Oversee open incident', i.title, `known since ${day(i.knownAt)} (${i.regimes.join(', ') || 'no regime'})`]);
  const horizon = ctx.asOfMs + ctx.p.certificationExpiringDays * DAY_MS;
  for (const c of ctx.f.certifications.filter(
    (c) => c.validUntil !== null && Date.parse(c.validUntil) > ctx.asOfMs && Date.parse(c.validUntil) <= horizon,
  ))
    items.push(['Renew certification', c.name, `valid until ${day(c.validUntil)}`]);
  return items;
}

/** The month keys (`YYYY-MM`) of the last `n` months up to the report date, oldest first. */
function lastMonths(asOf: string, n: number): string[] {
  const y = Number(asOf.slice(0, 4));
  const m = Number(asOf.slice(5, 7)) - 1;
  const out: string[] = [];
  for (let k = n - 1; k >= 0; k--) {
    const t = y * 12 + m - k;
    out.push(`${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, '0')}`);
  }
  return out;
}

const BLOCK_BUILDERS: Record<ReportBlock, (ctx: BlockContext) => Built> = {
  system(ctx) {
    const s = ctx.f.system;
    if (!s)
      return {
        paragraphs: [
          `No system was named: the report covers the organisation's ${ctx.f.systemIds.length} AI system(s): ${ctx.f.systemIds.join(', ') || 'none on record'}.`,
        ],
      };
    const p = s.profile;
    const rows: string[][] = [['System id', s.id]];
    if (p)
      rows.push(['Name', p.name], ['Purpose', p.purpose], ['Provider', p.provider], ['Role', p.role], ['Model', p.model ?? 'not stated']);
    rows.push(
      ['Assessments', String(ctx.view.assessments.length)],
      ['Evidence items', String(ctx.view.evidence.filter((e) => e.systemId === s.id).length)],
    );
    return {
      paragraphs: p ? [] : ['No disclosure profile is declared for this system; it is known from its assessments and evidence.'],
      table: { columns: ['Field', 'Value'], rows },
    };
  },
  classification(ctx) {
    const label = classify(ctx);
    const rows = ctx.view.assessments.map((a) => [a.id, a.type, a.status, pct(a.completion, 1)]);
    return tableOf(ctx, ['Assessment', 'Type', 'Status', 'Completion'], rows, 'No assessment is on record.', [`Classification: ${label}.`]);
  },
  obligationsEvidence(ctx) {
    const clauses = new Map<string, { obligations: string[]; evidence: string[] }>();
    const at = (ref: string) => {
      let c = clauses.get(ref);
      if (!c) {
        c = { obligations: [], evidence: [] };
        clauses.set(ref, c);
      }
      return c;
    };
    for (const o of ctx.f.obligations)
      at(`${o.frameworkId} ${o.clauseRef}`).obligations.push(`${o.title} (${o.status}, due ${day(o.dueDate)})`);
    const controlById = new Map(ctx.f.controls.map((c) => [c.id, c]));
    for (const e of ctx.view.evidence) {
      for (const cid of e.controlIds) {
        const c = controlById.get(cid);
        for (const ref of c?.clauseRefs ?? []) at(`${c?.frameworkId} ${ref}`).evidence.push(`${e.title} (${day(e.collectedAt)})`);
      }
    }
    const rows = [...clauses.keys()].sort().map((ref) => {
      const c = clauses.get(ref) as { obligations: string[]; evidence: string[] };
      return [
        ref,
        c.obligations.join('; ') || 'none recorded',
        sortedStrings(c.evidence).join('; ') || 'no evidence',
        c.evidence.length > 0 ? 'supported' : 'gap',
      ];
    });
    const gaps = rows.filter((r) => r[3] === 'gap').length;
    return tableOf(
      ctx,
      ['Clause', 'Obligations', 'Evidence', 'Status'],
      rows,
      'No obligation or evidence is on record.',
      rows.length ? [`${rows.length - gaps} of ${rows.length} clauses have evidence; ${gaps} are gaps.`] : [],
    );
  },
  incidents(ctx) {
    const rows = ctx.f.incidents.map((i) => [i.id, i.title, i.status, i.regimes.join(', '), day(i.knownAt), day(i.closedAt) || 'open']);
    return tableOf(ctx, ['Incident', 'Title', 'Status', 'Regimes', 'Known', 'Closed'], rows, 'No incident is on record.');
  },
  posture(ctx) {
    const rows = postureRows(ctx);
    const all = overallPosture(ctx);
    return tableOf(
      ctx,
      ['Framework', 'Controls', 'With evidence', 'Posture'],
      rows.map((r) => [r.title, String(r.controls), String(r.evidenced), pct(r.evidenced, r.controls)]),
      'No framework is activated.',
      rows.length ? [`Overall posture: ${pct(all.evidenced, all.controls)} of ${all.controls} controls have current evidence.`] : [],
    );
  },
  topRisks(ctx) {
    const rows = rankedRisks(ctx)
      .slice(0, ctx.p.topRisks)
      .map((r) => [r.title, r.domain, String(r.inherentScore), String(r.residualScore), r.residualRating, r.status]);
    return tableOf(ctx, ['Risk', 'Domain', 'Inherent', 'Residual', 'Rating', 'Status'], rows, 'No open risk is on the register.');
  },
  trends(ctx) {
    const months = lastMonths(ctx.f.asOf, ctx.p.trendMonths);
    const count = (dates: string[], m: string) => String(dates.filter((d) => d.startsWith(m)).length);
    const series: [string, string[]][] = [
      ['Evidence collected', ctx.view.evidence.map((e) => e.collectedAt)],
      ['Findings raised', ctx.view.findings.map((x) => x.createdAt)],
      ['Findings closed', ctx.view.findings.flatMap((x) => (x.closedAt ? [x.closedAt] : []))],
      ['Risks registered', ctx.f.risks.map((r) => r.createdAt)],
      ['Incidents', ctx.f.incidents.map((i) => i.knownAt)],
      ['Data-subject requests', ctx.f.dsars.map((d) => d.receivedAt)],
    ];
    return {
      paragraphs: [],
      table: { columns: ['Measure', ...months], rows: series.map(([label, dates]) => [label, ...months.map((m) => count(dates, m))]) },
    };
  },
  decisionsNeeded(ctx) {
    return tableOf(ctx, ['Decision', 'Subject', 'Why'], decisionItems(ctx), 'No matter is waiting for a decision on the report date.');
  },
  shariahFraming(ctx) {
    return { paragraphs: [...ctx.p.shariahFraming] };
  },
  ethicsGovernance(ctx) {
    const aiRisks = ctx.f.risks.filter((r) => r.domain === 'ai' && isOpenRisk(r));
    const tc = trainingCompletion(ctx);
    const rows = ctx.f.systemIds.map((id) => {
      const as = ctx.f.assessments.filter((a) => a.systemId === id);
      return [
        id,
        sortedStrings(as.map((a) => a.type)).join(', ') || 'none',
        String(as.filter((a) => a.status === 'completed').length),
        String(ctx.f.findings.filter((x) => x.systemId === id && isOpenFinding(x)).length),
      ];
    });
    return tableOf(ctx, ['AI system', 'Assessments', 'Completed', 'Open findings'], rows, 'No AI system is on record.', [
      `${ctx.f.systemIds.length} AI system(s) on record; ${aiRisks.length} open AI risk(s), the highest residual score ${aiRisks.reduce((m, r) => Math.max(m, r.residualScore), 0)}.`,
      `Training: ${tc.valid} of ${tc.total} completion(s) are valid on the report date.`,
    ]);
  },
  dataUse(ctx) {
    const withData = ctx.f.vendors.filter((v) => v.dataAccess.length > 0);
    const rows = [
      ...withData.map((v) => ['Vendor', v.name, v.dataAccess.join(', '), v.status]),
      ...ctx.f.subProcessors.map((s) => ['Sub-processor', s.name, s.purpose, s.region]),
    ];
    const open = ctx.f.dsars.filter((d) => d.closedAt === null).length;
    return tableOf(ctx, ['Kind', 'Name', 'Data or purpose', 'Status or region'], rows, 'No third party with access to data is on record.', [
      `${ctx.f.dsars.length} data-subject request(s) received, ${open} open, ${overdueDsars(ctx).length} past their statutory date.`,
    ]);
  },
  findings(ctx) {
    const rows = [...ctx.view.findings]
      .sort(
        (a, b) =>
          (a.status === b.status ? 0 : isOpenFinding(a) ? -1 : 1) ||
          severityRank(ctx, a.severity) - severityRank(ctx, b.severity) ||
          (a.id < b.id ? -1 : 1),
      )
      .map((x) => [x.id, x.title, x.severity, x.status, x.controlId ?? '', x.systemId ?? '', day(x.createdAt)]);
    const open = ctx.view.findings.filter(isOpenFinding).length;
    return tableOf(ctx, ['Finding', 'Title', 'Severity', 'Status', 'Control', 'System', 'Raised'], rows, 'No finding is on record.', [
      `${open} open of ${ctx.view.findings.length} finding(s).`,
    ]);
  },
  controlEffectiveness(ctx) {
    const rows = ctx.f.controls.map((c) => {
      const ev = ctx.view.evidence.filter((e) => e.controlIds.includes(c.id) && evidenceCurrent(ctx, e)).length;
      const open = ctx.view.findings.filter((x) => x.controlId === c.id && isOpenFinding(x)).length;
      const rating =
        open >= ctx.p.effectiveness.ineffectiveOpenFindings
          ? ev >= ctx.p.effectiveness.effectiveMinEvidence
            ? 'partially effective'
            : 'ineffective'
          : ev >= ctx.p.effectiveness.effectiveMinEvidence
            ? 'effective'
            : 'not evidenced';
      return [c.id, c.title, c.frameworkId, String(ev), String(open), rating];
    });
    return tableOf(
      ctx,
      ['Control', 'Title', 'Framework', 'Current evidence', 'Open findings', 'Rating'],
      rows,
      'No control is cited by evidence, findings or risks.',
    );
  },
  signOffs(ctx) {
    const title = new Map(ctx.f.risks.map((r) => [r.id, r.title]));
    const rows = [
      ...ctx.f.signOffs.map((s) => [
        'Risk acceptance',
        title.get(s.riskId) ?? s.riskId,
        s.signerId,
        `residual ${s.residualScore}`,
        day(s.createdAt),
      ]),
      ...ctx.f.attestations.map((a) => [
        'Attestation',
        `${a.subjectType} ${a.subjectId}`,
        a.attesterName + (a.attesterTitle ? `, ${a.attesterTitle}` : ''),
        '',
        day(a.attestedAt),
      ]),
    ];
    const unsigned = rankedRisks(ctx).filter((r) => !r.signedOff && r.residualScore >= ctx.p.decisionResidualScore).length;
    return tableOf(ctx, ['Kind', 'Subject', 'By', 'Detail', 'Date'], rows, 'No sign-off or attestation is on record.', [
      `${unsigned} open risk(s) at or above residual ${ctx.p.decisionResidualScore} have no sign-off.`,
    ]);
  },
  clientRollups(ctx) {
    const rows = ctx.f.systemIds.map((id) => {
      const as = ctx.f.assessments.filter((a) => a.systemId === id);
      const avg = as.length ? as.reduce((s, a) => s + a.completion, 0) / as.length : 0;
      return [
        id,
        String(as.length),
        as.length ? pct(avg, 1) : 'n/a',
        String(ctx.f.evidence.filter((e) => e.systemId === id).length),
        String(ctx.f.findings.filter((x) => x.systemId === id && isOpenFinding(x)).length),
      ];
    });
    return tableOf(
      ctx,
      ['System', 'Assessments', 'Avg completion', 'Evidence', 'Open findings'],
      rows,
      'No system is on record to roll up.',
    );
  },
  jointCustomers(ctx) {
    const rows = ctx.f.engagements
      .filter((e) => ctx.f.engagementId === null || e.id === ctx.f.engagementId)
      .map((e) => [e.id, e.firmId, e.status, day(e.createdAt), day(e.endedAt) || 'ongoing']);
    return tableOf(ctx, ['Engagement', 'Firm', 'Status', 'Since', 'Ended'], rows, 'No engagement with a partner firm is on record.');
  },
  evidencePack(ctx) {
    const rows = ctx.view.evidence.map((e) => [
      e.title,
      e.kind,
      e.controlIds.join(', '),
      day(e.collectedAt),
      evidenceCurrent(ctx, e) ? 'current' : 'expired',
      yes(e.sha256),
    ]);
    return tableOf(ctx, ['Evidence', 'Kind', 'Controls', 'Collected', 'Validity', 'Hashed'], rows, 'No evidence is on record for a pack.');
  },
  partnerRevenue(ctx) {
    const active = ctx.f.engagements.filter((e) => e.status === 'active');
    const rows = ctx.f.engagements.map((e) => [e.id, e.listingId, e.status, `${(e.shareRateBps / 100).toFixed(2)}%`]);
    return tableOf(ctx, ['Engagement', 'Listing', 'Status', 'Partner share'], rows, 'No engagement earns a partner share.', [
      `${active.length} active engagement(s) of ${ctx.f.engagements.length}.`,
    ]);
  },
  postureSummary(ctx) {
    const all = overallPosture(ctx);
    const open = rankedRisks(ctx);
    const byRating = sortedStrings(open.map((r) => r.residualRating)).map((rating) => [
      `Open risks rated ${rating}`,
      String(open.filter((r) => r.residualRating === rating).length),
    ]);
    const rows = [
      ['Frameworks activated', String(ctx.f.frameworks.length)],
      ['Controls with current evidence', `${all.evidenced} of ${all.controls} (${pct(all.evidenced, all.controls)})`],
      ['Open risks', String(open.length)],
      ...byRating,
      ['Open findings', String(ctx.view.findings.filter(isOpenFinding).length)],
      ['Open incidents', String(ctx.f.incidents.filter((i) => i.closedAt === null).length)],
      [
        'Valid certifications',
        String(ctx.f.certifications.filter((c) => c.validUntil === null || Date.parse(c.validUntil) > ctx.asOfMs).length),
      ],
    ];
    return { paragraphs: [], table: { columns: ['Measure', 'Value'], rows } };
  },
  certifications(ctx) {
    const rows = ctx.f.certifications.map((c) => [
      c.name,
      c.issuer,
      day(c.validFrom),
      day(c.validUntil) || 'no end',
      c.validUntil === null || Date.parse(c.validUntil) > ctx.asOfMs ? 'valid' : 'expired',
    ]);
    return tableOf(ctx, ['Certification', 'Issuer', 'Valid from', 'Valid until', 'State'], rows, 'No certification is on record.');
  },
  subProcessors(ctx) {
    const rows = ctx.f.subProcessors.map((s) => [s.name, s.purpose, s.region]);
    return tableOf(ctx, ['Sub-processor', 'Purpose', 'Region'], rows, 'No sub-processor is listed.');
  },
  overview(ctx) {
    const f = ctx.f;
    const rows: [string, number][] = [
      ['Frameworks activated', f.frameworks.length],
      ['AI systems', f.systemIds.length],
      ['Evidence items', ctx.view.evidence.length],
      ['Assessments', ctx.view.assessments.length],
      ['Obligations', f.obligations.length],
      ['Findings', ctx.view.findings.length],
      ['Risks', f.risks.length],
      ['Incidents', f.incidents.length],
      ['Data-subject requests', f.dsars.length],
      ['Vendors', f.vendors.length],
      ['Training completions', f.trainingRecords.length],
    ];
    return { paragraphs: [], table: { columns: ['Records', 'Count'], rows: rows.map(([k, v]) => [k, String(v)]) } };
  },
  dsars(ctx) {
    const overdue = new Set(overdueDsars(ctx).map((d) => d.id));
    const rows = ctx.f.dsars.map((d) => [
      d.id,
      d.regime,
      d.kind,
      d.status,
      day(d.receivedAt),
      d.dueDate ?? 'unknown',
      d.closedAt ? 'closed' : overdue.has(d.id) ? 'overdue' : 'on time',
    ]);
    return tableOf(ctx, ['Request', 'Regime', 'Kind', 'Status', 'Received', 'Due', 'Clock'], rows, 'No data-subject request is on record.');
  },
  vendors(ctx) {
    const rows = [...ctx.f.vendors]
      .sort((a, b) => b.riskScore - a.riskScore || (a.id < b.id ? -1 : 1))
      .map((v) => [v.name, v.criticality, v.status, String(v.riskScore), v.dataAccess.join(', ')]);
    return tableOf(ctx, ['Vendor', 'Criticality', 'Status', 'Risk score', 'Data access'], rows, 'No vendor is on record.');
  },
  agentDecisions(ctx) {
    if (ctx.f.agentDecisions === null) return { paragraphs: ['Agent decisions are not recorded on this deployment.'] };
    const rows = ctx.f.agentDecisions.map((a) => [a.agent, String(a.count)]);
    return tableOf(ctx, ['Agent', 'Decisions'], rows, 'No agent decision is on record.');
  },
  evidenceGaps(ctx) {
    // A system relies on the controls its findings and evidence cite plus those of the risks;
    // a gap is a relied-on control with no current evidence of the system or the organisation.
    const systems = ctx.f.systemId ? [ctx.f.systemId] : ctx.f.systemIds;
    const rows: string[][] = [];
    const riskControls = ctx.f.risks.filter(isOpenRisk).flatMap((r) => r.controlIds);
    for (const sys of systems) {
      const mine = (s: string | null) => s === null || s === sys;
      const ev = ctx.f.evidence.filter((e) => mine(e.systemId) && evidenceCurrent(ctx, e));
      const relied = sortedStrings([
        ...ctx.f.evidence.filter((e) => e.systemId === sys).flatMap((e) => e.controlIds),
        ...ctx.f.findings.filter((x) => x.systemId === sys).flatMap((x) => (x.controlId ? [x.controlId] : [])),
        ...riskControls,
      ]);
      for (const c of relied) {
        const n = ev.filter((e) => e.controlIds.includes(c)).length;
        rows.push([sys, c, String(n), n === 0 ? 'gap' : 'covered']);
      }
    }
    const gaps = rows.filter((r) => r[3] === 'gap').length;
    return tableOf(ctx, ['System', 'Control', 'Current evidence', 'Status'], rows, 'No system relies on a control on record.', [
      `${gaps} gap(s) across ${systems.length} system(s).`,
    ]);
  },
  technicalTasks(ctx) {
    const tasks: { rank: number; row: string[] }[] = [];
    for (const x of ctx.view.findings.filter(isOpenFinding))
      tasks.push({ rank: severityRank(ctx, x.severity), row: [`Remediate finding ${x.id}`, x.title, x.severity, x.controlId ?? ''] });
    for (const e of ctx.view.evidence.filter((e) => !evidenceCurrent(ctx, e)))
      tasks.push({ rank: 1, row: [`Refresh evidence ${e.id}`, e.title, 'expired', e.controlIds.join(', ')] });
    for (const r of rankedRisks(ctx).filter((r) => r.plannedTreatments > 0))
      tasks.push({
        rank: 2,
        row: [`Implement ${r.plannedTreatments} treatment(s)`, r.title, `residual ${r.residualScore}`, r.controlIds.join(', ')],
      });
    // Code-unit order, not locale order: the same tasks give the same bytes on every machine.
    const key = (t: { row: string[] }) => t.row.join('\u0000');
    const rows = tasks.sort((a, b) => a.rank - b.rank || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).map((t) => t.row);
    return tableOf(ctx, ['Task', 'Subject', 'Urgency', 'Controls'], rows, 'No technical task is open.');
  },
  kpis(ctx) {
    const all = overallPosture(ctx);
    const tc = trainingCompletion(ctx);
    const open = rankedRisks(ctx);
    const rows = [
      ['Compliance posture', pct(all.evidenced, all.controls)],
      ['Open risks at or above decision threshold', String(open.filter((r) => r.residualScore >= ctx.p.decisionResidualScore).length)],
      ['Highest residual risk', open[0] ? `${open[0].title} (${open[0].residualScore})` : 'none'],
      ['Open findings', String(ctx.view.findings.filter(isOpenFinding).length)],
      ['Open incidents', String(ctx.f.incidents.filter((i) => i.closedAt === null).length)],
      ['Overdue data-subject requests', String(overdueDsars(ctx).length)],
      ['Valid training completions', `${tc.valid} of ${tc.total}`],
      ['Decisions waiting', String(decisionItems(ctx).length)],
    ];
    return { paragraphs: [], table: { columns: ['Indicator', 'Value'], rows } };
  },
  engagements(ctx) {
    const rows = ctx.f.engagements
      .filter((e) => ctx.f.engagementId === null || e.id === ctx.f.engagementId)
      .map((e) => [e.id, e.firmId, e.listingId, e.status, day(e.createdAt), day(e.endedAt) || 'ongoing']);
    const lead = ctx.f.engagementId ? [`Engagement ${ctx.f.engagementId}.`] : [`${ctx.f.engagements.length} engagement(s) on record.`];
    return tableOf(
      ctx,
      ['Engagement', 'Firm', 'Listing', 'Status', 'Since', 'Ended'],
      rows,
      'No engagement of an advisory firm is on record.',
      lead,
    );
  },
  curriculum(ctx) {
    const rows = ctx.f.trainingModules.map((m) => [
      m.title,
      m.requiredForRoleIds.join(', ') || 'no role',
      m.validityDays === null ? 'no expiry' : `${m.validityDays} days`,
      m.frameworkRefs.join('; '),
    ]);
    return tableOf(ctx, ['Module', 'Required of roles', 'Validity', 'Provisions'], rows, 'No training module is defined.');
  },
  trainingCompletion(ctx) {
    const rows = ctx.f.trainingModules.map((m) => {
      const rs = ctx.f.trainingRecords.filter((r) => r.moduleId === m.id);
      const scored = rs.filter((r) => r.score !== null);
      const valid = rs.filter((r) => r.expiresAt === null || Date.parse(r.expiresAt) > ctx.asOfMs).length;
      return [
        m.title,
        String(new Set(rs.map((r) => r.userId)).size),
        String(rs.length),
        String(valid),
        scored.length ? String(Math.round(scored.reduce((s, r) => s + (r.score ?? 0), 0) / scored.length)) : 'n/a',
      ];
    });
    const tc = trainingCompletion(ctx);
    return tableOf(ctx, ['Module', 'People', 'Completions', 'Valid', 'Average score'], rows, 'No training module is defined.', [
      `${tc.valid} of ${tc.total} completion(s) are valid on the report date.`,
    ]);
  },
  trainingAttestations(ctx) {
    const rows = ctx.f.trainingRecords.map((r) => [
      r.userName,
      r.moduleTitle,
      day(r.completedAt),
      r.score === null ? 'n/a' : String(r.score),
      r.certificateId,
      day(r.expiresAt) || 'no expiry',
    ]);
    return tableOf(
      ctx,
      ['Person', 'Module', 'Completed', 'Score', 'Certificate', 'Valid until'],
      rows,
      'No completion is on record to attest.',
    );
  },
};
