/**
 * The report catalogue: the 15 report types as data (13 for stakeholders, 2 assessment documents). Their audiences, reviewers and
 * section recipes (heading, introduction, which block fills it) and every threshold the blocks use
 * live in `content/reports/types.json`, checked here with its schema. Reads the content folder
 * (never the database); the composition (compose.ts) takes a catalogue or this one by default.
 */
import { z } from 'zod';
import { dataFile } from '../../content/data-file.ts';

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
  'assessmentRecord',
  'assessmentStages',
  'assessmentEvidence',
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
  types: z.array(TypeRecipe).length(15),
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

/** The 15 report types (`GET /v1/reports/types`), in the catalogue's order. */
export const REPORT_TYPES: ReportType[] = reportCatalogue().types.map(typeOf);

export const REPORT_TYPE_IDS: readonly string[] = REPORT_TYPES.map((t) => t.id);
