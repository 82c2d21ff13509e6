import { alt1PartnerReporting } from './alt1-partner-reporting.ts';
import { alt1Reporting } from './alt1-reporting.ts';
import { alt1TrainerReporting } from './alt1-trainer-reporting.ts';
import { alt2Reporting } from './alt2-reporting.ts';
import { type ReportingPreset, reportingPresets } from './shared.ts';
import type { AgentSpec } from './spec.ts';
import { stakeholderReport } from './stakeholder-report.ts';
import { svcConsultantReporting } from './svc-consultant-reporting.ts';
import { svcPartnerReporting } from './svc-partner-reporting.ts';
import { svcReporting } from './svc-reporting.ts';
import { svcTrainerReporting } from './svc-trainer-reporting.ts';

export { type ReportingPreset, STAKEHOLDER_REPORT_TYPE_IDS } from './shared.ts';

/**
 * The report composer and its facades. One engine composes the 13 stakeholder report types from
 * the tenant's records; `stakeholder-report` picks the type from words describing the reader, and
 * each facade is a preset over the same engine: the types it offers, the one it uses when none is
 * asked for, and the sections it keeps. Every report is a draft with its recommended reviewers;
 * no agent publishes one. Each agent is declared in the file of its slug, the engine's shapes and
 * the facades' presets in `shared.ts`.
 */
export const reportingAgents = {
  stakeholderReport,
  svcReporting,
  alt1Reporting,
  alt2Reporting,
  svcPartnerReporting,
  svcConsultantReporting,
  svcTrainerReporting,
  alt1PartnerReporting,
  alt1TrainerReporting,
} as const satisfies Record<string, AgentSpec>;

/** The facades' presets by slug: the server's rules apply these, the specs above describe them. */
export const REPORTING_PRESETS: Readonly<Record<string, ReportingPreset>> = reportingPresets(reportingAgents);
