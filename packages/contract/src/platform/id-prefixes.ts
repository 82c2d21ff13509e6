import { claimIdPrefix } from './resource.ts';

/**
 * Id prefixes of records that are not declared with the resource kit (the kit claims its own).
 * One registry: a prefix claimed twice fails at import, and a test checks every id the server
 * mints uses a registered prefix.
 */
const PREFIXES: Readonly<Record<string, string>> = {
  ten: 'svc.operator.tenant',
  key: 'svc.operator.api_key',
  opc: 'operator credential',
  act: 'svc.frameworks.activation',
  aud: 'audit-trail event',
  evi: 'event-index row',
  agd: 'agent dispatch of an event',
  evt: 'outbound webhook event',
  whs: 'svc.webhooks.subscription',
  whd: 'svc.webhooks.delivery',
  wha: 'webhook delivery attempt',
  ibe: 'inbound webhook event',
  rcn: 'reconciliation run',
  drf: 'reconciliation drift',
  dla: 'deadline alert of the sweep',
  job: 'background job',
  wus: 'web application user',
  cor: 'correlation id of a request',
};
for (const [prefix, owner] of Object.entries(PREFIXES)) claimIdPrefix(prefix, owner);
