import { conformityGuide } from './conformity-guide.ts';
import { evidenceCompiler } from './evidence-compiler.ts';
import { frameworkMapper } from './framework-mapper.ts';
import { fria } from './fria.ts';
import { governanceAdvisor } from './governance-advisor.ts';
import { gpaiDocs } from './gpai-docs.ts';
import { incidentReporter } from './incident-reporter.ts';
import { policySteward } from './policy-steward.ts';
import { riskNavigator } from './risk-navigator.ts';
import type { AgentSpec } from './spec.ts';
import { trainingCurator } from './training-curator.ts';
import { workflowCatalogue } from './workflow-catalogue.ts';

/**
 * Compliance-authoring agents: they map, compile, draft and rank from the tenant's records and the
 * framework dictionaries. Every output lists what was missing rather than inventing it. Each agent
 * is declared in the file of its slug.
 */
export const groupAAgents = {
  frameworkMapper,
  evidenceCompiler,
  fria,
  incidentReporter,
  trainingCurator,
  conformityGuide,
  gpaiDocs,
  riskNavigator,
  governanceAdvisor,
  workflowCatalogue,
  policySteward,
} as const satisfies Record<string, AgentSpec>;
