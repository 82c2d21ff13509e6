/**
 * The report engine: the pure composition of a report from its recipe and its facts. The reporting
 * rail renders what this composes into a PDF; the reporting agents (stakeholder-report and its
 * facades) answer it as JSON. One engine, many presets.
 *
 * - catalogue.ts: the 15 report types and their section recipes, as data (content/reports/types.json);
 * - facts.ts: `gatherReportFacts`, the only part that reads the database, returns a plain, typed facts object;
 * - blocks.ts: the block builders, pure functions from the facts to a section's paragraphs and table;
 * - here: recipe + facts -> report, each section the recipe's heading and introduction over its block.
 */
import { ApiError } from '../../errors.ts';
import { BLOCK_BUILDERS, blockContext, type ReportTable } from './blocks.ts';
import { type ReportCatalogue, reportCatalogue } from './catalogue.ts';
import type { ReportFacts, ReportFactsData } from './facts.ts';

// What the engine offered from this module before it was split: its callers import it from here.
export type { ReportTable } from './blocks.ts';
export {
  REPORT_CATALOGUE,
  REPORT_TYPE_IDS,
  REPORT_TYPES,
  type ReportBlock,
  type ReportCatalogue,
  ReportCatalogueSchema,
  type ReportParameters,
  type ReportType,
  type ReportTypeRecipe,
  reportCatalogue,
} from './catalogue.ts';
export type {
  FactAssessment,
  FactControl,
  FactEvidence,
  FactFinding,
  FactFramework,
  FactObligation,
  FactRisk,
  FactSystemProfile,
  ReportFacts,
  ReportFactsData,
} from './facts.ts';

export interface ReportSection {
  heading: string;
  paragraphs: string[];
  table?: ReportTable;
  /** The block of the recipe that computed the section (`posture`, `topRisks`, ...). */
  block?: string;
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

/** What a facade or caller may narrow: the blocks to keep (all of the recipe when absent). */
export interface ComposeOptions {
  catalogue?: ReportCatalogue;
  /** Keep only the sections computed by these blocks (a facade's section filter). */
  blocks?: readonly string[];
}

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
  const ctx = blockContext(f, catalogue.parameters);
  const keep = opts.blocks ? new Set(opts.blocks) : null;
  const sections = recipe.sections
    .filter((s) => keep === null || keep.has(s.block))
    .flatMap((s) => {
      const built = BLOCK_BUILDERS[s.block](ctx);
      const section: ReportSection = { heading: s.heading, block: s.block, paragraphs: [s.intro, ...built.paragraphs] };
      if (built.table) section.table = built.table;
      // A block may fill further sections of its own (an assessment's stages).
      const more = (built.sections ?? []).map((x): ReportSection => ({ ...x, block: s.block }));
      return [section, ...more];
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
