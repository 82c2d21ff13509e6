import { conformityGuide } from '../group-a/conformity-guide.ts';
import { evidenceCompiler } from '../group-a/evidence-compiler.ts';
import { frameworkMapper } from '../group-a/framework-mapper.ts';
import { fria } from '../group-a/fria.ts';
import { governanceAdvisor } from '../group-a/governance-advisor.ts';
import { gpaiDocs } from '../group-a/gpai-docs.ts';
import { incidentReporter } from '../group-a/incident-reporter.ts';
import { policySteward } from '../group-a/policy-steward.ts';
import { riskNavigator } from '../group-a/risk-navigator.ts';
import { trainingCurator } from '../group-a/training-curator.ts';
import { workflowCatalogue } from '../group-a/workflow-catalogue.ts';
import type { AnyAgentDef } from '../types.ts';

/** The compliance-authoring agents (one module each under ../group-a). */
export const agents: AnyAgentDef[] = [
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
];
