import { analyticsInsight } from '../group-b/analytics-insight.ts';
import { biasEvaluator } from '../group-b/bias-evaluator.ts';
import { dataClassifier } from '../group-b/data-classifier.ts';
import { dataMapper } from '../group-b/data-mapper.ts';
import { dsarHandler } from '../group-b/dsar-handler.ts';
import { explainabilityNarrator } from '../group-b/explainability-narrator.ts';
import { redTeamAttacker } from '../group-b/red-team-attacker.ts';
import { riskOfficer } from '../group-b/risk-officer.ts';
import { searchAgents } from '../group-b/search.ts';
import { vendorPrefillBot } from '../group-b/vendor-prefill-bot.ts';
import type { AnyAgentDef } from '../types.ts';

/** Data, risk and search agents (one module each under ../group-b/). */
export const agents: AnyAgentDef[] = [
  riskOfficer,
  dataClassifier,
  dataMapper,
  dsarHandler,
  analyticsInsight,
  biasEvaluator,
  redTeamAttacker,
  explainabilityNarrator,
  vendorPrefillBot,
  ...searchAgents,
];
