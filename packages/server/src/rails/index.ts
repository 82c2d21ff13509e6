import type { Contract } from '@svc/contract';
import { agentsHandlers } from './agents/router.ts';
import { auditEngineHandlers } from './audit-engine/router.ts';
import { auditTrailHandlers } from './audit-trail/router.ts';
import { complianceHandlers } from './compliance/router.ts';
import { contextHandlers } from './context/router.ts';
import type { RailDeps } from './deps.ts';
import { dsarHandlers } from './dsar/router.ts';
import { eventsHandlers } from './events/router.ts';
import { frameworksHandlers } from './frameworks/router.ts';
import { glossaryHandlers } from './glossary/router.ts';
import { governanceHandlers } from './governance/router.ts';
import { gpaiSummaryHandlers } from './gpai-summary/router.ts';
import { graphHandlers } from './graph/router.ts';
import { incidentDisclosuresHandlers } from './incident-disclosures/router.ts';
import { insuranceHandlers } from './insurance/router.ts';
import { litigationHoldHandlers } from './litigation-hold/router.ts';
import { marketplaceHandlers } from './marketplace/router.ts';
import { metadataHandlers } from './metadata/router.ts';
import { notificationsHandlers } from './notifications/router.ts';
import { onboardingHandlers } from './onboarding/router.ts';
import { ontologyHandlers } from './ontology/router.ts';
import { operatorHandlers } from './operator/router.ts';
import { policyAuthoringHandlers } from './policy-authoring/router.ts';
import { procurementHandlers } from './procurement/router.ts';
import { profilesHandlers } from './profiles/router.ts';
import { publicDisclosureHandlers } from './public-disclosure/router.ts';
import { reconciliationHandlers } from './reconciliation/router.ts';
import { redTeamHandlers } from './red-team/router.ts';
import { reportingHandlers } from './reporting/router.ts';
import { riskHandlers } from './risk/router.ts';
import { riskRegisterHandlers } from './risk-register/router.ts';
import { searchHandlers } from './search/router.ts';
import { seedHandlers } from './seed/router.ts';
import { selfAuditHandlers } from './self-audit/router.ts';
import { specialistsHandlers } from './specialists/router.ts';
import { stakeholdersHandlers } from './stakeholders/router.ts';
import { systemHandlers } from './system/router.ts';
import { taxonomyHandlers } from './taxonomy/router.ts';
import { trainingRecordsHandlers } from './training-records/router.ts';
import { trustHandlers } from './trust/router.ts';
import { vendorRiskHandlers } from './vendor-risk/router.ts';
import { webhooksHandlers } from './webhooks/router.ts';
import { whistleblowerHandlers } from './whistleblower/router.ts';
import { workflowsRegistryHandlers } from './workflows-registry/router.ts';
import { workspaceHandlers } from './workspace/router.ts';

/**
 * The server's one list of rails: each key of the contract and the factory of its handlers
 * (rails/<rail>/router.ts). Adding a rail adds one line here; a key of the contract missing
 * here, or a handler of the wrong shape, does not compile (app.ts passes the result to ts-rest).
 */
const RAILS = {
  compliance: complianceHandlers,
  frameworks: frameworksHandlers,
  glossary: glossaryHandlers,
  graph: graphHandlers,
  trust: trustHandlers,
  ontology: ontologyHandlers,
  seed: seedHandlers,
  taxonomy: taxonomyHandlers,
  onboarding: onboardingHandlers,
  profiles: profilesHandlers,
  workflows_registry: workflowsRegistryHandlers,
  metadata: metadataHandlers,
  workspace: workspaceHandlers,
  context: contextHandlers,
  search: searchHandlers,
  notifications: notificationsHandlers,
  stakeholders: stakeholdersHandlers,
  governance: governanceHandlers,
  self_audit: selfAuditHandlers,
  risk_register: riskRegisterHandlers,
  risk: riskHandlers,
  policy_authoring: policyAuthoringHandlers,
  training_records: trainingRecordsHandlers,
  marketplace: marketplaceHandlers,
  specialists: specialistsHandlers,
  incident_disclosures: incidentDisclosuresHandlers,
  dsar: dsarHandlers,
  vendor_risk: vendorRiskHandlers,
  procurement: procurementHandlers,
  insurance: insuranceHandlers,
  public_disclosure: publicDisclosureHandlers,
  litigation_hold: litigationHoldHandlers,
  whistleblower: whistleblowerHandlers,
  gpai_summary: gpaiSummaryHandlers,
  red_team: redTeamHandlers,
  agents: agentsHandlers,
  reporting: reportingHandlers,
  audit_engine: auditEngineHandlers,
  audit_trail: auditTrailHandlers,
  events: eventsHandlers,
  reconciliation: reconciliationHandlers,
  webhooks: webhooksHandlers,
  operator: operatorHandlers,
  system: systemHandlers,
} satisfies Record<keyof Contract, (deps: RailDeps) => unknown>;

/** The handlers of every rail, built once per app. */
export function railHandlers(deps: RailDeps) {
  return Object.fromEntries(Object.entries(RAILS).map(([key, handlers]) => [key, handlers(deps)])) as {
    [K in keyof typeof RAILS]: ReturnType<(typeof RAILS)[K]>;
  };
}
