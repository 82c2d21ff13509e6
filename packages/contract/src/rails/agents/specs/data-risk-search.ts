import { alt1Search } from './alt1-search.ts';
import { alt2Search } from './alt2-search.ts';
import { analyticsInsight } from './analytics-insight.ts';
import { biasEvaluator } from './bias-evaluator.ts';
import { dataClassifier } from './data-classifier.ts';
import { dataMapper } from './data-mapper.ts';
import { dsarHandler } from './dsar-handler.ts';
import { explainabilityNarrator } from './explainability-narrator.ts';
import { redTeamAttacker } from './red-team-attacker.ts';
import { riskOfficer } from './risk-officer.ts';
import type { AgentSpec } from './spec.ts';
import { svcSearch } from './svc-search.ts';
import { vendorPrefillBot } from './vendor-prefill-bot.ts';

/**
 * Data, risk and search agents: the risk officer over the risk register, the data classifier,
 * mapper and DSAR handler over the privacy rails, the analytics, bias, red-team, explainability
 * and vendor agents, and three search facades over the one search engine. Each agent is declared
 * in the file of its slug.
 */
export const groupBAgents = {
  riskOfficer,
  dataClassifier,
  dataMapper,
  dsarHandler,
  analyticsInsight,
  biasEvaluator,
  redTeamAttacker,
  explainabilityNarrator,
  vendorPrefillBot,
  svcSearch,
  alt1Search,
  alt2Search,
} as const satisfies Record<string, AgentSpec>;
