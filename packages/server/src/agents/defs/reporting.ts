import { REPORTING_PRESETS, type ReportingPreset, reportingAgents, STAKEHOLDER_REPORT_TYPE_IDS } from '@svc/contract';
import { ApiError, invalid } from '../../errors.ts';
import {
  type ComposedReport,
  composeReport,
  type ReportCatalogue,
  type ReportFacts,
  reportCatalogue,
} from '../../rails/reporting/compose.ts';
import { gatherReportFacts } from '../../rails/reporting/facts.ts';
import { type AgentContext, type AgentDef, defineAgent } from '../types.ts';

/**
 * The reporting agents: `stakeholder-report` and eight facades, all over the one report engine
 * (rails/reporting/: facts.ts, blocks.ts, compose.ts). A facade is a preset in its rules (the types it offers, its
 * default, the sections it keeps); gather reads the tenant's records with the engine's
 * `gatherReportFacts`, decide composes with `composeReport` under the preset. The rules carry
 * the report catalogue itself, so a stored decision replays against the recipe it was made with.
 */

type TypeId = (typeof STAKEHOLDER_REPORT_TYPE_IDS)[number];

/** The catalogue as this version of the service ships it: part of every reporting agent's rules. */
const CATALOGUE: ReportCatalogue = reportCatalogue();

/** The dictionary a report type mainly draws on: it names the decision's dictionary version. */
const DICTIONARY_BY_TYPE: Record<TypeId, string> = {
  regulator: 'eu-ai-act',
  board: 'iso-iec-42001',
  'shariah-board': 'iso-iec-42001',
  'audit-committee': 'iso-iec-27001',
  partner: 'iso-iec-27001',
  investor: 'iso-iec-42001',
  customer: 'iso-iec-27001',
  internal: 'gdpr',
  engineer: 'iso-iec-27001',
  executive: 'iso-iec-42001',
  consultant: 'iso-iec-42001',
  trainer: 'eu-ai-act',
  'partner-program': 'iso-iec-27001',
};

/**
 * Words that name each stakeholder, lower case. The type whose longest keyword found in the
 * words is the longest wins (`shariah supervisory board` beats `board`; `audit committee of the
 * board` is the audit committee), then the one with more keywords found, then the order here.
 */
const STAKEHOLDER_KEYWORDS: { type: TypeId; keywords: string[] }[] = [
  {
    type: 'regulator',
    keywords: [
      'regulator',
      'regulators',
      'supervisory authority',
      'market surveillance authority',
      'market surveillance',
      'data protection authority',
      'competent authority',
      'notified body',
      'authority',
      'supervisor',
      'ai office',
    ],
  },
  {
    type: 'shariah-board',
    keywords: ['shariah', 'sharia', 'shariah board', 'shariah supervisory board', 'islamic', 'aaoifi', 'fatwa committee'],
  },
  { type: 'audit-committee', keywords: ['audit committee', 'auditors', 'internal audit', 'audit', 'audit and risk committee'] },
  { type: 'partner-program', keywords: ['partner program', 'partner programme', 'partner manager', 'channel program', 'partner network'] },
  { type: 'board', keywords: ['board', 'board of directors', 'directors', 'non executive directors', 'supervisory board', 'trustees'] },
  { type: 'partner', keywords: ['partner', 'partners', 'reseller', 'resellers', 'alliance', 'joint venture'] },
  {
    type: 'investor',
    keywords: ['investor', 'investors', 'shareholder', 'shareholders', 'lender', 'lenders', 'venture capital', 'due diligence'],
  },
  {
    type: 'customer',
    keywords: ['customer', 'customers', 'client', 'clients', 'prospect', 'prospects', 'buyer', 'procurement team', 'trust center'],
  },
  {
    type: 'engineer',
    keywords: ['engineer', 'engineers', 'engineering', 'developer', 'developers', 'ml team', 'devops', 'data scientists', 'platform team'],
  },
  {
    type: 'executive',
    keywords: ['executive', 'executives', 'ceo', 'cfo', 'coo', 'leadership', 'c suite', 'management team', 'senior management'],
  },
  { type: 'consultant', keywords: ['consultant', 'consultants', 'advisor', 'advisers', 'advisors', 'advisory firm', 'engagement'] },
  {
    type: 'trainer',
    keywords: ['trainer', 'trainers', 'training provider', 'instructor', 'instructors', 'learning and development', 'cohort'],
  },
  {
    type: 'internal',
    keywords: ['internal', 'compliance team', 'privacy team', 'risk team', 'staff', 'employees', 'dpo', 'compliance officer'],
  },
];

interface FacadeRules {
  catalogue: ReportCatalogue;
  preset: ReportingPreset & { id: string };
  dictionaryByType: Record<TypeId, string>;
}
interface StakeholderRules extends FacadeRules {
  stakeholderKeywords: typeof STAKEHOLDER_KEYWORDS;
}

/** Refuses a request without the inputs its report type needs (`systemId` for the regulator). */
function requireInputs(catalogue: ReportCatalogue, type: string, input: Record<string, unknown>): void {
  const recipe = catalogue.types.find((t) => t.id === type);
  for (const field of recipe?.requiredInputs ?? []) {
    if (input[field] === undefined || input[field] === null || input[field] === '') {
      throw new ApiError('validation_failed', `The ${type} report needs ${field}.`, [
        { field, issue: 'required', message: `The ${type} report needs ${field}.` },
      ]);
    }
  }
}

/** The composed report with its preset, as the agents answer it. */
function answer(type: TypeId, facts: ReportFacts, rules: FacadeRules, preset: ReportingPreset & { id: string }) {
  const report: ComposedReport = composeReport(type, facts, { catalogue: rules.catalogue, blocks: preset.blocks ?? undefined });
  return {
    ...report,
    sections: report.sections.map((s) => ({ ...s, block: s.block ?? '' })),
    template: type,
    preset: { id: preset.id, allowedTypes: [...preset.allowedTypes], defaultType: preset.defaultType, blocks: preset.blocks },
  };
}

// ---------------------------------------------------------------- facades

interface FacadeInput {
  template?: TypeId;
  systemId?: string;
  engagementId?: string;
}

/** The type a facade composes for a request: the one asked for, else its default. */
const typeFor = (preset: ReportingPreset, input: FacadeInput): TypeId => input.template ?? preset.defaultType;

function facadeDef<S extends (typeof reportingAgents)[Exclude<keyof typeof reportingAgents, 'stakeholderReport'>]>(
  spec: S,
): AgentDef<S, ReportFacts> {
  const preset = REPORTING_PRESETS[spec.slug];
  if (!preset) throw new Error(`No preset is defined for ${spec.slug}.`);
  const rules: FacadeRules = { catalogue: CATALOGUE, preset: { id: spec.slug, ...preset }, dictionaryByType: DICTIONARY_BY_TYPE };
  return defineAgent<S, ReportFacts>({
    spec,
    ruleSet: { id: `${spec.slug}-rules`, version: '1.0.0', rules },
    dictionaryVersion: (ctx: AgentContext, input) => ctx.versionOf(rules.dictionaryByType[typeFor(rules.preset, input as FacadeInput)]),
    async gather(ctx, raw) {
      const input = raw as FacadeInput;
      const type = typeFor(rules.preset, input);
      if (!rules.preset.allowedTypes.includes(type)) {
        throw invalid('template', `${spec.slug} does not compose the ${type} report; it composes ${rules.preset.allowedTypes.join(', ')}.`);
      }
      requireInputs(rules.catalogue, type, input as Record<string, unknown>);
      return gatherReportFacts(
        ctx.prisma,
        ctx.tenantId,
        { template: type, systemId: input.systemId ?? null, engagementId: input.engagementId ?? null },
        ctx.now,
      );
    },
    decide(raw, facts, r: FacadeRules) {
      const input = raw as FacadeInput;
      return answer(typeFor(r.preset, input), facts, r, r.preset) as never;
    },
  });
}

// ---------------------------------------------------------------- stakeholder-report

/** Lower case, letters and digits only, single spaces: `Board-of-Directors!` reads `board of directors`. */
const normalise = (s: string): string =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Pure: the report type the words name, with the keywords found (longest first); null when none. */
export function selectReportType(
  stakeholder: string,
  keywords: StakeholderRules['stakeholderKeywords'],
): { type: TypeId; matchedKeywords: string[] } | null {
  const text = ` ${normalise(stakeholder)} `;
  let best: { type: TypeId; matchedKeywords: string[]; longest: number; order: number } | null = null;
  keywords.forEach((entry, order) => {
    const found = entry.keywords.filter((k) => text.includes(` ${normalise(k)} `)).sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
    if (found.length === 0) return;
    const longest = (found[0] as string).length;
    if (!best || longest > best.longest || (longest === best.longest && found.length > best.matchedKeywords.length)) {
      best = { type: entry.type, matchedKeywords: found, longest, order };
    }
  });
  const chosen = best as { type: TypeId; matchedKeywords: string[] } | null;
  return chosen ? { type: chosen.type, matchedKeywords: chosen.matchedKeywords } : null;
}

const stakeholderRules: StakeholderRules = {
  catalogue: CATALOGUE,
  preset: { id: 'stakeholder-report', allowedTypes: [...STAKEHOLDER_REPORT_TYPE_IDS], defaultType: 'internal', blocks: null },
  dictionaryByType: DICTIONARY_BY_TYPE,
  stakeholderKeywords: STAKEHOLDER_KEYWORDS,
};

const stakeholderReport = defineAgent<typeof reportingAgents.stakeholderReport, ReportFacts>({
  spec: reportingAgents.stakeholderReport,
  ruleSet: { id: 'stakeholder-report-rules', version: '1.0.0', rules: stakeholderRules },
  dictionaryVersion: (ctx, input) => {
    const picked = selectReportType(input.stakeholder, stakeholderRules.stakeholderKeywords);
    return ctx.versionOf(stakeholderRules.dictionaryByType[picked?.type ?? stakeholderRules.preset.defaultType]);
  },
  async gather(ctx, input) {
    const picked = selectReportType(input.stakeholder, stakeholderRules.stakeholderKeywords);
    if (!picked) {
      throw invalid(
        'stakeholder',
        `No report type matches "${input.stakeholder}": name the reader, for example ${stakeholderRules.stakeholderKeywords.map((k) => `"${k.keywords[0]}"`).join(', ')}.`,
      );
    }
    requireInputs(stakeholderRules.catalogue, picked.type, input as Record<string, unknown>);
    return gatherReportFacts(ctx.prisma, ctx.tenantId, { template: picked.type, systemId: input.systemId ?? null }, ctx.now);
  },
  decide(input, facts, rules: StakeholderRules) {
    const picked = selectReportType(input.stakeholder, rules.stakeholderKeywords);
    if (!picked) throw new Error(`No report type matches "${input.stakeholder}".`);
    const preset = { ...rules.preset, defaultType: picked.type };
    return {
      ...answer(picked.type, facts, rules, preset),
      selection: { stakeholder: input.stakeholder, type: picked.type, matchedKeywords: picked.matchedKeywords },
    };
  },
});

// biome-ignore lint/suspicious/noExplicitAny: the registry holds the agents of every spec
export const agents: AgentDef<any, any>[] = [
  stakeholderReport,
  facadeDef(reportingAgents.svcReporting),
  facadeDef(reportingAgents.alt1Reporting),
  facadeDef(reportingAgents.alt2Reporting),
  facadeDef(reportingAgents.svcPartnerReporting),
  facadeDef(reportingAgents.svcConsultantReporting),
  facadeDef(reportingAgents.svcTrainerReporting),
  facadeDef(reportingAgents.alt1PartnerReporting),
  facadeDef(reportingAgents.alt1TrainerReporting),
];
