import '../id-prefixes.ts';
import { operatorEvents, operatorRouter, systemRouter } from '../operator.ts';
import { registerEventTypes, type WebhookEventType } from '../webhook-events.ts';
import { agentsEvents, agentsRouter } from './agents.ts';
import { auditEngineEvents, auditEngineRouter } from './audit-engine.ts';
import { auditTrailRouter } from './audit-trail.ts';
import { complianceEvents, complianceRouter } from './compliance.ts';
import { contextEvents, contextRouter } from './context.ts';
import { dsarEvents, dsarRouter } from './dsar.ts';
import { eventsRouter } from './events.ts';
import { frameworksEvents, frameworksRouter } from './frameworks.ts';
import { glossaryRouter } from './glossary.ts';
import { governanceEvents, governanceRouter } from './governance.ts';
import { gpaiSummaryEvents, gpaiSummaryRouter } from './gpai-summary.ts';
import { graphRouter } from './graph.ts';
import { incidentDisclosuresEvents, incidentDisclosuresRouter } from './incident-disclosures.ts';
import { insuranceEvents, insuranceRouter } from './insurance.ts';
import { litigationHoldEvents, litigationHoldRouter } from './litigation-hold.ts';
import { marketplaceEvents, marketplaceRouter } from './marketplace.ts';
import { metadataEvents, metadataRouter } from './metadata.ts';
import { notificationsEvents, notificationsRouter } from './notifications.ts';
import { onboardingEvents, onboardingRouter } from './onboarding.ts';
import { ontologyEvents, ontologyRouter } from './ontology.ts';
import { policyAuthoringEvents, policyAuthoringRouter } from './policy-authoring.ts';
import { procurementEvents, procurementRouter } from './procurement.ts';
import { profilesEvents, profilesRouter } from './profiles.ts';
import { publicDisclosureEvents, publicDisclosureRouter } from './public-disclosure.ts';
import { reconciliationRouter } from './reconciliation.ts';
import { redTeamEvents, redTeamRouter } from './red-team.ts';
import { reportingEvents, reportingRouter } from './reporting.ts';
import { riskEvents, riskRouter } from './risk.ts';
import { riskRegisterEvents, riskRegisterRouter } from './risk-register.ts';
import { searchEvents, searchRouter } from './search.ts';
import { seedEvents, seedRouter } from './seed.ts';
import { selfAuditEvents, selfAuditRouter } from './self-audit.ts';
import { specialistsEvents, specialistsRouter } from './specialists.ts';
import { stakeholdersEvents, stakeholdersRouter } from './stakeholders.ts';
import { taxonomyEvents, taxonomyRouter } from './taxonomy.ts';
import { trainingRecordsEvents, trainingRecordsRouter } from './training-records.ts';
import { trustEvents, trustRouter } from './trust.ts';
import { vendorRiskEvents, vendorRiskRouter } from './vendor-risk.ts';
import { webhooksRouter } from './webhooks.ts';
import { whistleblowerEvents, whistleblowerRouter } from './whistleblower.ts';
import { workflowsRegistryEvents, workflowsRegistryRouter } from './workflows-registry.ts';
import { workspaceEvents, workspaceRouter } from './workspace.ts';

/**
 * The index of rail modules: each rail file exports its router and its event types; this is the
 * one list they are collected from (router.ts builds the contract from it, the event registry
 * takes the events). Adding a rail: one file in rails/, one entry in each list below.
 */
/** Named so that declaration files refer to each rail's router type instead of inlining them all. */
export type RailRouters = {
  compliance: typeof complianceRouter;
  frameworks: typeof frameworksRouter;
  glossary: typeof glossaryRouter;
  graph: typeof graphRouter;
  audit_trail: typeof auditTrailRouter;
  events: typeof eventsRouter;
  reconciliation: typeof reconciliationRouter;
  webhooks: typeof webhooksRouter;
  trust: typeof trustRouter;
  ontology: typeof ontologyRouter;
  seed: typeof seedRouter;
  taxonomy: typeof taxonomyRouter;
  onboarding: typeof onboardingRouter;
  profiles: typeof profilesRouter;
  workflows_registry: typeof workflowsRegistryRouter;
  metadata: typeof metadataRouter;
  workspace: typeof workspaceRouter;
  context: typeof contextRouter;
  search: typeof searchRouter;
  notifications: typeof notificationsRouter;
  stakeholders: typeof stakeholdersRouter;
  governance: typeof governanceRouter;
  self_audit: typeof selfAuditRouter;
  risk_register: typeof riskRegisterRouter;
  risk: typeof riskRouter;
  policy_authoring: typeof policyAuthoringRouter;
  training_records: typeof trainingRecordsRouter;
  marketplace: typeof marketplaceRouter;
  specialists: typeof specialistsRouter;
  incident_disclosures: typeof incidentDisclosuresRouter;
  dsar: typeof dsarRouter;
  vendor_risk: typeof vendorRiskRouter;
  procurement: typeof procurementRouter;
  insurance: typeof insuranceRouter;
  public_disclosure: typeof publicDisclosureRouter;
  litigation_hold: typeof litigationHoldRouter;
  whistleblower: typeof whistleblowerRouter;
  gpai_summary: typeof gpaiSummaryRouter;
  red_team: typeof redTeamRouter;
  agents: typeof agentsRouter;
  reporting: typeof reportingRouter;
  audit_engine: typeof auditEngineRouter;
  operator: typeof operatorRouter;
  system: typeof systemRouter;
};

export const railRouters: RailRouters = {
  compliance: complianceRouter,
  frameworks: frameworksRouter,
  glossary: glossaryRouter,
  graph: graphRouter,
  audit_trail: auditTrailRouter,
  events: eventsRouter,
  reconciliation: reconciliationRouter,
  webhooks: webhooksRouter,
  trust: trustRouter,
  ontology: ontologyRouter,
  seed: seedRouter,
  taxonomy: taxonomyRouter,
  onboarding: onboardingRouter,
  profiles: profilesRouter,
  workflows_registry: workflowsRegistryRouter,
  metadata: metadataRouter,
  workspace: workspaceRouter,
  context: contextRouter,
  search: searchRouter,
  notifications: notificationsRouter,
  stakeholders: stakeholdersRouter,
  governance: governanceRouter,
  self_audit: selfAuditRouter,
  risk_register: riskRegisterRouter,
  risk: riskRouter,
  policy_authoring: policyAuthoringRouter,
  training_records: trainingRecordsRouter,
  marketplace: marketplaceRouter,
  specialists: specialistsRouter,
  incident_disclosures: incidentDisclosuresRouter,
  dsar: dsarRouter,
  vendor_risk: vendorRiskRouter,
  procurement: procurementRouter,
  insurance: insuranceRouter,
  public_disclosure: publicDisclosureRouter,
  litigation_hold: litigationHoldRouter,
  whistleblower: whistleblowerRouter,
  gpai_summary: gpaiSummaryRouter,
  red_team: redTeamRouter,
  agents: agentsRouter,
  reporting: reportingRouter,
  audit_engine: auditEngineRouter,
  operator: operatorRouter,
  system: systemRouter,
};

/**
 * The webhook event types of each rail (its resources' and its hand-declared ones), in the order
 * they are registered; a rail of the contract missing here does not compile.
 */
const railEvents: { readonly [K in keyof RailRouters]: readonly WebhookEventType[] } = {
  compliance: complianceEvents,
  frameworks: frameworksEvents,
  operator: operatorEvents,
  taxonomy: taxonomyEvents,
  onboarding: onboardingEvents,
  profiles: profilesEvents,
  workflows_registry: workflowsRegistryEvents,
  metadata: metadataEvents,
  workspace: workspaceEvents,
  seed: seedEvents,
  ontology: ontologyEvents,
  trust: trustEvents,
  incident_disclosures: incidentDisclosuresEvents,
  dsar: dsarEvents,
  vendor_risk: vendorRiskEvents,
  procurement: procurementEvents,
  insurance: insuranceEvents,
  public_disclosure: publicDisclosureEvents,
  litigation_hold: litigationHoldEvents,
  whistleblower: whistleblowerEvents,
  gpai_summary: gpaiSummaryEvents,
  red_team: redTeamEvents,
  agents: agentsEvents,
  reporting: reportingEvents,
  audit_engine: auditEngineEvents,
  context: contextEvents,
  search: searchEvents,
  notifications: notificationsEvents,
  stakeholders: stakeholdersEvents,
  governance: governanceEvents,
  self_audit: selfAuditEvents,
  risk_register: riskRegisterEvents,
  risk: riskEvents,
  policy_authoring: policyAuthoringEvents,
  training_records: trainingRecordsEvents,
  marketplace: marketplaceEvents,
  specialists: specialistsEvents,
  glossary: [],
  graph: [],
  audit_trail: [],
  events: [],
  reconciliation: [],
  webhooks: [],
  system: [],
};

registerEventTypes(Object.values(railEvents).flat());
