import '../platform/id-prefixes.ts';
import type { RailDeclaration } from '../platform/rail.ts';
import * as agentsRail from './agents/rail.ts';
import * as auditEngineRail from './audit-engine/rail.ts';
import * as auditTrailRail from './audit-trail/rail.ts';
import * as complianceRail from './compliance/rail.ts';
import * as contextRail from './context/rail.ts';
import * as dsarRail from './dsar/rail.ts';
import * as eventsRail from './events/rail.ts';
import * as frameworksRail from './frameworks/rail.ts';
import * as glossaryRail from './glossary/rail.ts';
import * as governanceRail from './governance/rail.ts';
import * as gpaiSummaryRail from './gpai-summary/rail.ts';
import * as graphRail from './graph/rail.ts';
import * as incidentDisclosuresRail from './incident-disclosures/rail.ts';
import * as insuranceRail from './insurance/rail.ts';
import * as litigationHoldRail from './litigation-hold/rail.ts';
import * as marketplaceRail from './marketplace/rail.ts';
import * as metadataRail from './metadata/rail.ts';
import * as notificationsRail from './notifications/rail.ts';
import * as onboardingRail from './onboarding/rail.ts';
import * as ontologyRail from './ontology/rail.ts';
import * as operatorRail from './operator/rail.ts';
import * as policyAuthoringRail from './policy-authoring/rail.ts';
import * as procurementRail from './procurement/rail.ts';
import * as profilesRail from './profiles/rail.ts';
import * as publicDisclosureRail from './public-disclosure/rail.ts';
import * as reconciliationRail from './reconciliation/rail.ts';
import * as redTeamRail from './red-team/rail.ts';
import * as reportingRail from './reporting/rail.ts';
import * as riskRail from './risk/rail.ts';
import * as riskRegisterRail from './risk-register/rail.ts';
import * as seedRail from './seed/rail.ts';
import * as selfAuditRail from './self-audit/rail.ts';
import * as specialistsRail from './specialists/rail.ts';
import * as stakeholdersRail from './stakeholders/rail.ts';
import * as systemRail from './system/rail.ts';
import * as taxonomyRail from './taxonomy/rail.ts';
import * as trainingRecordsRail from './training-records/rail.ts';
import * as trustRail from './trust/rail.ts';
import * as vendorRiskRail from './vendor-risk/rail.ts';
import * as webhooksRail from './webhooks/rail.ts';
import * as whistleblowerRail from './whistleblower/rail.ts';
import * as workflowsRegistryRail from './workflows-registry/rail.ts';
import * as workspaceRail from './workspace/rail.ts';

/**
 * The one list of the contract's rails, one line each, in the order of the API: the order of the
 * document's paths and of the SDK's namespaces, of the rails' webhook event types in the
 * registry and of their search kinds within a scope. Each entry is a rail's declaration module,
 * rails/<rail>/rail.ts (`RailDeclaration` in platform/rail.ts says why a module): its key, its
 * router, its event types and its searchable kinds. The contract's router and its type, the event
 * registry and the search kinds are derived from this list (platform/router.ts,
 * rails/search/kinds.ts); the search rail, built from the kinds of these, is added after them.
 *
 * Adding a rail: its folder rails/<rail>/ with its rail.ts, one line here, one `export *` line in
 * src/index.ts (and, for a catalogue rail, its entry in platform/catalogue.ts). A rail left out of
 * this list is missing from the contract, and the server's map of handlers does not compile.
 */
export const RAILS = [
  complianceRail,
  frameworksRail,
  glossaryRail,
  graphRail,
  auditTrailRail,
  eventsRail,
  reconciliationRail,
  webhooksRail,
  trustRail,
  ontologyRail,
  seedRail,
  taxonomyRail,
  onboardingRail,
  profilesRail,
  workflowsRegistryRail,
  metadataRail,
  workspaceRail,
  contextRail,
  notificationsRail,
  stakeholdersRail,
  governanceRail,
  selfAuditRail,
  riskRegisterRail,
  riskRail,
  policyAuthoringRail,
  trainingRecordsRail,
  marketplaceRail,
  specialistsRail,
  incidentDisclosuresRail,
  dsarRail,
  vendorRiskRail,
  procurementRail,
  insuranceRail,
  publicDisclosureRail,
  litigationHoldRail,
  whistleblowerRail,
  gpaiSummaryRail,
  redTeamRail,
  agentsRail,
  reportingRail,
  auditEngineRail,
  operatorRail,
  systemRail,
] as const satisfies readonly RailDeclaration[];
