import { analyticsInsight } from '../data-risk-search/analytics-insight.ts';
import { biasEvaluator } from '../data-risk-search/bias-evaluator.ts';
import { dataClassifier } from '../data-risk-search/data-classifier.ts';
import { dataMapper } from '../data-risk-search/data-mapper.ts';
import { dsarHandler } from '../data-risk-search/dsar-handler.ts';
import { explainabilityNarrator } from '../data-risk-search/explainability-narrator.ts';
import { redTeamAttacker } from '../data-risk-search/red-team-attacker.ts';
import { riskOfficer } from '../data-risk-search/risk-officer.ts';
import { searchAgents } from '../data-risk-search/search.ts';
import { vendorPrefillBot } from '../data-risk-search/vendor-prefill-bot.ts';
import type { AnyAgentDef } from '../types.ts';

/** Data, risk and search agents (one module each under ../data-risk-search/). */
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
