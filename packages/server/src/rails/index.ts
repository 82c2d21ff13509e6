import type { Contract } from '@svc/contract';
import { collectSearchSources, provideSearchSources } from '../search/documents.ts';
import type { RailSearch } from '../search/sources.ts';
import { agentsHandlers } from './agents/router.ts';
import { auditEngineHandlers } from './audit-engine/router.ts';
import { auditTrailHandlers } from './audit-trail/router.ts';
import { complianceHandlers } from './compliance/router.ts';
import { complianceSearch } from './compliance/search.ts';
import { contextHandlers } from './context/router.ts';
import type { RailDeps } from './deps.ts';
import { dsarHandlers } from './dsar/router.ts';
import { eventsHandlers } from './events/router.ts';
import { frameworksHandlers } from './frameworks/router.ts';
import { frameworksSearch } from './frameworks/search.ts';
import { glossaryHandlers } from './glossary/router.ts';
import { glossarySearch } from './glossary/search.ts';
import { governanceHandlers } from './governance/router.ts';
import { gpaiSummaryHandlers } from './gpai-summary/router.ts';
import { graphHandlers } from './graph/router.ts';
import { graphSearch } from './graph/search.ts';
import { incidentDisclosuresHandlers } from './incident-disclosures/router.ts';
import { insuranceHandlers } from './insurance/router.ts';
import { litigationHoldHandlers } from './litigation-hold/router.ts';
import { marketplaceHandlers } from './marketplace/router.ts';
import { metadataHandlers } from './metadata/router.ts';
import { metadataSearch } from './metadata/search.ts';
import { notificationsHandlers } from './notifications/router.ts';
import { onboardingHandlers } from './onboarding/router.ts';
import { ontologyHandlers } from './ontology/router.ts';
import { operatorHandlers } from './operator/router.ts';
import { policyAuthoringHandlers } from './policy-authoring/router.ts';
import { policyAuthoringSearch } from './policy-authoring/search.ts';
import { procurementHandlers } from './procurement/router.ts';
import { profilesHandlers } from './profiles/router.ts';
import { profilesSearch } from './profiles/search.ts';
import { publicDisclosureHandlers } from './public-disclosure/router.ts';
import { reconciliationHandlers } from './reconciliation/router.ts';
import { redTeamHandlers } from './red-team/router.ts';
import { reportingHandlers } from './reporting/router.ts';
import { riskHandlers } from './risk/router.ts';
import { riskRegisterHandlers } from './risk-register/router.ts';
import { searchHandlers } from './search/router.ts';
import { seedHandlers } from './seed/router.ts';
import { selfAuditHandlers } from './self-audit/router.ts';
import { selfAuditSearch } from './self-audit/search.ts';
import { specialistsHandlers } from './specialists/router.ts';
import { specialistsSearch } from './specialists/search.ts';
import { stakeholdersHandlers } from './stakeholders/router.ts';
import { stakeholdersSearch } from './stakeholders/search.ts';
import { systemHandlers } from './system/router.ts';
import { taxonomyHandlers } from './taxonomy/router.ts';
import { trainingRecordsHandlers } from './training-records/router.ts';
import { trustHandlers } from './trust/router.ts';
import { trustSearch } from './trust/search.ts';
import { vendorRiskHandlers } from './vendor-risk/router.ts';
import { webhooksHandlers } from './webhooks/router.ts';
import { whistleblowerHandlers } from './whistleblower/router.ts';
import { workflowsRegistryHandlers } from './workflows-registry/router.ts';
import { workflowsRegistrySearch } from './workflows-registry/search.ts';
import { workspaceHandlers } from './workspace/router.ts';

/** A rail: the factory of its handlers and, when it serves searchable records, their search sources. */
interface Rail {
  handlers: (deps: RailDeps) => unknown;
  search?: RailSearch;
}

/**
 * The server's one list of rails: each key of the contract with the factory of its handlers
 * (rails/<rail>/router.ts) and the search sources of its records (rails/<rail>/search.ts).
 * Adding a rail adds one line here; a key of the contract missing here, a handler of the wrong
 * shape (app.ts passes the result to ts-rest), or a searchable kind of the contract without a
 * source does not compile.
 */
const RAILS = {
  compliance: { handlers: complianceHandlers, search: complianceSearch },
  frameworks: { handlers: frameworksHandlers, search: frameworksSearch },
  glossary: { handlers: glossaryHandlers, search: glossarySearch },
  graph: { handlers: graphHandlers, search: graphSearch },
  trust: { handlers: trustHandlers, search: trustSearch },
  ontology: { handlers: ontologyHandlers },
  seed: { handlers: seedHandlers },
  taxonomy: { handlers: taxonomyHandlers },
  onboarding: { handlers: onboardingHandlers },
  profiles: { handlers: profilesHandlers, search: profilesSearch },
  workflows_registry: { handlers: workflowsRegistryHandlers, search: workflowsRegistrySearch },
  metadata: { handlers: metadataHandlers, search: metadataSearch },
  workspace: { handlers: workspaceHandlers },
  context: { handlers: contextHandlers },
  search: { handlers: searchHandlers },
  notifications: { handlers: notificationsHandlers },
  stakeholders: { handlers: stakeholdersHandlers, search: stakeholdersSearch },
  governance: { handlers: governanceHandlers },
  self_audit: { handlers: selfAuditHandlers, search: selfAuditSearch },
  risk_register: { handlers: riskRegisterHandlers },
  risk: { handlers: riskHandlers },
  policy_authoring: { handlers: policyAuthoringHandlers, search: policyAuthoringSearch },
  training_records: { handlers: trainingRecordsHandlers },
  marketplace: { handlers: marketplaceHandlers },
  specialists: { handlers: specialistsHandlers, search: specialistsSearch },
  incident_disclosures: { handlers: incidentDisclosuresHandlers },
  dsar: { handlers: dsarHandlers },
  vendor_risk: { handlers: vendorRiskHandlers },
  procurement: { handlers: procurementHandlers },
  insurance: { handlers: insuranceHandlers },
  public_disclosure: { handlers: publicDisclosureHandlers },
  litigation_hold: { handlers: litigationHoldHandlers },
  whistleblower: { handlers: whistleblowerHandlers },
  gpai_summary: { handlers: gpaiSummaryHandlers },
  red_team: { handlers: redTeamHandlers },
  agents: { handlers: agentsHandlers },
  reporting: { handlers: reportingHandlers },
  audit_engine: { handlers: auditEngineHandlers },
  audit_trail: { handlers: auditTrailHandlers },
  events: { handlers: eventsHandlers },
  reconciliation: { handlers: reconciliationHandlers },
  webhooks: { handlers: webhooksHandlers },
  operator: { handlers: operatorHandlers },
  system: { handlers: systemHandlers },
} satisfies Record<keyof Contract, Rail>;

/** The search sources of the rails, in the order of the contract's kinds; the process's index caches read them. */
export const SEARCH_SOURCES = collectSearchSources(RAILS);
provideSearchSources(SEARCH_SOURCES);

/** The handlers of every rail, built once per app. */
export function railHandlers(deps: RailDeps) {
  return Object.fromEntries(Object.entries(RAILS).map(([key, rail]) => [key, rail.handlers(deps)])) as {
    [K in keyof typeof RAILS]: ReturnType<(typeof RAILS)[K]['handlers']>;
  };
}
