/**
 * The block builders of the report engine: one pure function per block a recipe can name
 * (posture, top risks, trends, decisions needed, obligations and evidence per clause, control
 * effectiveness, KPIs, ...), from the facts (facts.ts) and the catalogue's parameters to the
 * paragraphs and the table of a section. A block is code because it computes (a posture
 * percentage, a residual ranking, a month bucket, an overdue date); no block reads anything.
 */
import { controlRating } from '../compliance/gap-status.ts';
import type { ReportBlock, ReportParameters } from './catalogue.ts';
import type {
  FactAssessment,
  FactDocumentQuestion,
  FactEvidence,
  FactFinding,
  FactGapAnalysis,
  FactRisk,
  ReportFactsData,
} from './facts.ts';

export interface ReportTable {
  columns: string[];
  rows: string[][];
}

/** What a block computes: the paragraphs after the section's introduction, and its table if any. */
export interface Built {
  paragraphs: string[];
  table?: ReportTable;
  /**
   * Further sections the block fills after its own (one per stage of an assessment): each with
   * its own heading, paragraphs and table.
   */
  sections?: { heading: string; paragraphs: string[]; table?: ReportTable }[];
}

/** What every block reads: the facts, the catalogue's parameters, the system's view and the report date. */
export interface BlockContext {
  f: ReportFactsData;
  p: ReportParameters;
  /** The records of the report's system (and the organisation-wide ones) when a system is given, else all. */
  view: { evidence: FactEvidence[]; findings: FactFinding[]; assessments: FactAssessment[] };
  asOfMs: number;
}

/** The context of the blocks of one report. */
export function blockContext(f: ReportFactsData, p: ReportParameters): BlockContext {
  return { f, p, view: scopeToSystem(f), asOfMs: Date.parse(f.asOf) };
}

const pct = (n: number, d: number): string => (d === 0 ? 'n/a' : `${Math.round((n / d) * 1000) / 10}%`);
const day = (isoString: string | null): string => (isoString ? isoString.slice(0, 10) : '');
const yes = (b: boolean): string => (b ? 'yes' : 'no');
const DAY_MS = 86_400_000;
const sortedStrings = (xs: readonly string[]): string[] => [...new Set(xs)].sort();

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

interface PostureRow {
  id: string;
  title: string;
  controls: number;
  evidenced: number;
  /** Rated as the trust posture rates them (gap-status.ts): passing counts 1, partial 1/2, failing 0. */
  passing: number;
  partial: number;
  failing: number;
  gap: FactGapAnalysis | null;
}

/**
 * Per framework: controls, controls with current evidence, and the rating of each control the
 * trust posture gives: the latest approved gap analysis decides for the controls it assessed
 * (non-compliant failing, partially compliant partial, compliant passing with current evidence),
 * current evidence for the others. With no approved gap analysis, passing = evidenced.
 */
function postureRows(ctx: BlockContext): PostureRow[] {
  const evidenced = new Set(ctx.view.evidence.filter((e) => evidenceCurrent(ctx, e)).flatMap((e) => e.controlIds));
  return ctx.f.frameworks.map((fw) => {
    const gap = fw.gapAnalysis ?? null;
    const statuses = gap?.statuses ?? {};
    const withEvidence = ctx.f.controls.filter((c) => c.frameworkId === fw.id && evidenced.has(c.id)).map((c) => c.id);
    const rated = { passing: 0, partial: 0, failing: 0, not_evidenced: 0 };
    for (const id of new Set([...withEvidence, ...Object.keys(statuses)])) rated[controlRating(statuses[id], evidenced.has(id))]++;
    return {
      id: fw.id,
      title: fw.title,
      controls: fw.controlCount,
      evidenced: withEvidence.length,
      passing: rated.passing,
      partial: rated.partial,
      failing: rated.failing,
      gap,
    };
  });
}
const postureScore = (r: { passing: number; partial: number; controls: number }): string => pct(r.passing + r.partial / 2, r.controls);
function overallPosture(ctx: BlockContext): { controls: number; evidenced: number; passing: number; partial: number; failing: number } {
  return postureRows(ctx).reduce(
    (a, r) => ({
      controls: a.controls + r.controls,
      evidenced: a.evidenced + r.evidenced,
      passing: a.passing + r.passing,
      partial: a.partial + r.partial,
      failing: a.failing + r.failing,
    }),
    { controls: 0, evidenced: 0, passing: 0, partial: 0, failing: 0 },
  );
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

const NO_ASSESSMENT = 'No assessment was named: a document report needs assessmentId.';

/** An answer as a reader reads it: the value (or the evidence it attaches) and the justification. */
function answerText(a: NonNullable<FactDocumentQuestion['answer']>): string {
  const value = a.value === null ? (a.evidenceIds.length > 0 ? 'evidence attached' : '') : String(a.value);
  const evidence = a.evidenceIds.length > 0 ? ` Evidence: ${a.evidenceIds.join(', ')}.` : '';
  const end = (t: string) => (/[.!?]$/.test(t) ? t : `${t}.`);
  return `Answer: ${end(value)}${a.notes ? ` Notes: ${end(a.notes)}` : ''}${evidence}`;
}

export const BLOCK_BUILDERS: Record<ReportBlock, (ctx: BlockContext) => Built> = {
  assessmentRecord(ctx) {
    const a = ctx.f.assessment;
    if (!a) return { paragraphs: [NO_ASSESSMENT] };
    const questions = a.stages.flatMap((s) => s.questions);
    const answered = questions.filter((q) => q.answer !== null).length;
    const rows: string[][] = [
      ['Assessment', a.id],
      ['Type', a.type],
      ...(a.title ? [['Title', a.title]] : []),
      ['AI system', a.systemId],
      ['Revision', String(a.revision)],
      ['Status', a.status],
      ['Dictionary version', a.dictionaryVersion ?? 'none pinned'],
      ['Recipe version', a.recipeVersion ?? 'none'],
      ['Submitted by', a.submittedBy ?? 'not submitted'],
      ['Submitted at', a.submittedAt ?? 'not submitted'],
      ['Approved by', a.approvedBy ?? 'not approved'],
      ['Approved at', a.approvedAt ?? 'not approved'],
      ['Answers hash (SHA-256)', a.answersHash ?? 'not frozen: set on approval'],
      ['Questions answered', `${answered} of ${questions.length}`],
    ];
    const lead =
      a.status === 'approved'
        ? ['The assessment is approved: its answers are frozen under the answers hash below.']
        : [`The assessment is ${a.status}, not approved: its answers may still change.`];
    return { paragraphs: lead, table: { columns: ['Field', 'Value'], rows } };
  },
  assessmentStages(ctx) {
    const a = ctx.f.assessment;
    if (!a) return { paragraphs: [NO_ASSESSMENT] };
    return {
      paragraphs: [`${a.stages.length} stage(s), each on its own page below.`],
      sections: a.stages.map((s, n) => ({
        heading: `Stage ${n + 1}: ${s.title}${s.citation ? ` (${s.citation})` : ''}`,
        paragraphs: s.questions.length
          ? s.questions.flatMap((q, i) => [
              `${n + 1}.${i + 1} ${q.text}`,
              `Citation: ${q.citation || 'none'}.${q.required ? '' : ' Optional question.'}`,
              q.answer ? answerText(q.answer) : 'Answer: not answered.',
              ...(q.answer ? [`Answered by ${q.answer.by} at ${q.answer.at}.`] : []),
            ])
          : ['This stage asks no question.'],
      })),
    };
  },
  assessmentEvidence(ctx) {
    const a = ctx.f.assessment;
    if (!a) return { paragraphs: [NO_ASSESSMENT] };
    if (a.evidence.length === 0) return { paragraphs: ['No answer cites evidence.'] };
    // One entry per record, the hash on a line of its own so that it reads (and copies) whole.
    return {
      paragraphs: a.evidence.flatMap((e) => [
        `${e.id}: ${e.title}`,
        `SHA-256: ${e.sha256 ?? 'not recorded'}`,
        `Collected ${e.collectedAt}; expires ${e.expiresAt ?? 'never'}${e.expiresAt && Date.parse(e.expiresAt) <= ctx.asOfMs ? ' (expired)' : ''}.`,
      ]),
    };
  },
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
    const gapped = rows.filter((r) => r.gap !== null);
    // Without an approved gap analysis the posture is the share of controls with current evidence.
    const lead =
      rows.length === 0
        ? []
        : gapped.length === 0
          ? [`Overall posture: ${postureScore(all)} of ${all.controls} controls have current evidence.`]
          : [
              'Posture counts a control as met when current evidence cites it; where the latest approved gap analysis of the framework assessed a control, its status decides: non-compliant counts as failing, partially compliant as half met, compliant as met when current evidence cites it.',
              `Overall posture: ${postureScore(all)} of ${all.controls} controls (${all.passing} met, ${all.partial} partially compliant, ${all.failing} non-compliant; ${all.evidenced} with current evidence).`,
              ...gapped.map((r) => {
                const g = r.gap as FactGapAnalysis;
                return `${r.title}: gap analysis ${g.assessmentId} (AI system ${g.systemId}), approved ${g.approvedAt}: ${r.failing} non-compliant, ${r.partial} partially compliant.`;
              }),
            ];
    return tableOf(
      ctx,
      ['Framework', 'Controls', 'With evidence', 'Posture'],
      rows.map((r) => [r.title, String(r.controls), String(r.evidenced), postureScore(r)]),
      'No framework is activated.',
      lead,
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
      ['Compliance posture', postureScore(all)],
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
