import { conformityGuide } from '../compliance-authoring/conformity-guide.ts';
import { evidenceCompiler } from '../compliance-authoring/evidence-compiler.ts';
import { frameworkMapper } from '../compliance-authoring/framework-mapper.ts';
import { fria } from '../compliance-authoring/fria.ts';
import { governanceAdvisor } from '../compliance-authoring/governance-advisor.ts';
import { gpaiDocs } from '../compliance-authoring/gpai-docs.ts';
import { incidentReporter } from '../compliance-authoring/incident-reporter.ts';
import { policySteward } from '../compliance-authoring/policy-steward.ts';
import { riskNavigator } from '../compliance-authoring/risk-navigator.ts';
import { trainingCurator } from '../compliance-authoring/training-curator.ts';
import { workflowCatalogue } from '../compliance-authoring/workflow-catalogue.ts';
import type { AnyAgentDef } from '../types.ts';

/** The compliance-authoring agents (one module each under ../compliance-authoring/). */
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
