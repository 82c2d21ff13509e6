import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { get, post } from '../../platform/declare.ts';
import { commonErrorResponses } from '../../platform/errors.ts';
import { meta } from '../../platform/meta.ts';
import { ENVIRONMENTS, ROLES, TIERS } from '../../platform/tiers.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery, prefixedId, Timestamp, UserId } from '../../shared/common.ts';
import { CREATED_AT_DESCRIPTION, EXAMPLE_AT, exampleId, idParams, objectField } from '../../shared/records.ts';
import { PublicKey } from '../audit-trail/index.ts';

/**
 * The operator routes (`/v1/operator`): tenants and their API keys, the rotation of the audit
 * trail's signing key and of the calling operator credential. Outside the catalogue: an operator
 * credential calls them, not a tenant's key.
 */

const c = initContract();

const Permission = z
  .string()
  .regex(/^(\*|[a-z_]+):(\*|[a-z_]+)$/)
  .meta({ examples: ['compliance:read'] });

/** The record the `object` field descriptions of the operator routes name as their example. */
const OBJECT_EXAMPLE = 'svc.compliance.assessment';
const CreatedAt = Timestamp.meta({ description: CREATED_AT_DESCRIPTION });

// The words a tenant or a key and the request that creates it share.
const TenantTier = z.enum(TIERS).meta({ description: 'Tier of the tenant: decides the rails it may call and its rate-limit plan.' });
const ENV_DESCRIPTION = "Environment of the tenant's keys: `live`, `test` or `dev`; appears in the key (`svc_live_...`).";
const REGION_DESCRIPTION = "Data region where the tenant's records are kept (`eu`).";
const TENANT_ID_DESCRIPTION = 'Id of the tenant (`ten_` prefix) the record belongs to.';
const KeyRole = z
  .enum(ROLES)
  .meta({ description: 'Role of the key: `owner`, `admin`, `editor`, `auditor` or `viewer`; decides the permissions granted.' });
const SCOPES_DESCRIPTION =
  'Permissions `<area>:<action>` the key is narrowed to (`compliance:read`); empty means everything the role grants.';
const EXPIRES_AT_DESCRIPTION = 'When it stops being valid: ISO 8601 UTC timestamp; null or absent for no expiry.';
const PERSON_ID_DESCRIPTION =
  "The person of the tenant's stakeholders rail (`usr_`) the key acts for: approval steps and sign-offs made with it are that person's, and it cannot act as anyone else. Null or absent: a service key, which can take no step that needs a person.";

export const Tenant = z
  .object({
    object: objectField('svc.operator.tenant', OBJECT_EXAMPLE),
    id: prefixedId('ten', exampleId('ten')),
    name: z.string().meta({ description: 'Display name of the tenant, shown to people (`Acme Bank`).' }),
    tier: TenantTier,
    env: z.enum(ENVIRONMENTS).meta({ description: ENV_DESCRIPTION }),
    region: z.string().meta({ description: REGION_DESCRIPTION }),
    rateLimitPerSecond: z.int().nullable().meta({ description: "Requests per second allowed by the tenant's plan (X-RateLimit-Limit)." }),
    monthlyQuota: z.int().nullable().meta({ description: "Requests per calendar month (UTC) allowed by the tenant's plan." }),
    createdAt: CreatedAt,
  })
  .meta({
    id: 'Tenant',
    examples: [
      {
        object: 'svc.operator.tenant',
        id: exampleId('ten'),
        name: 'Acme Bank',
        tier: 'growth',
        env: 'live',
        region: 'eu',
        rateLimitPerSecond: null,
        monthlyQuota: null,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const ApiKey = z
  .object({
    object: objectField('svc.operator.api_key', OBJECT_EXAMPLE),
    id: prefixedId('key', exampleId('key')),
    tenantId: z.string().meta({ description: TENANT_ID_DESCRIPTION }),
    name: z.string().meta({ description: 'Label of the key for people (`CI pipeline`); not secret.' }),
    role: KeyRole,
    scopes: z.array(z.string()).meta({ description: SCOPES_DESCRIPTION }),
    prefix: z.string().meta({ description: 'First characters of the token, to recognise it.' }),
    createdAt: CreatedAt,
    expiresAt: Timestamp.nullable().meta({ description: EXPIRES_AT_DESCRIPTION }),
    revokedAt: Timestamp.nullable().meta({ description: 'When the key was revoked (ISO 8601 UTC); null while it is active.' }),
    lastUsedAt: Timestamp.nullable().meta({
      description: 'Time of the last authenticated request made with the key (ISO 8601 UTC); null when never used.',
    }),
    personId: UserId.nullable().meta({ description: PERSON_ID_DESCRIPTION }),
  })
  .meta({ id: 'ApiKey' });

export const CreatedApiKey = ApiKey.extend({
  token: z.string().meta({ description: 'The bearer token, `svc_<env>_<random>`. Shown once, stored hashed.' }),
}).meta({ id: 'CreatedApiKey' });

export const CreateTenantBody = z
  .strictObject({
    name: z.string().min(1).max(200).meta({ description: 'Display name of the tenant, 1 to 200 characters.' }),
    tier: TenantTier,
    env: z.enum(ENVIRONMENTS).default('live').meta({ description: ENV_DESCRIPTION }),
    region: z
      .string()
      .regex(/^[a-z]{2,12}$/)
      .default('eu')
      .meta({ description: REGION_DESCRIPTION }),
    rateLimitPerSecond: z.int().min(1).max(100_000).optional().meta({ description: 'Custom limit (enterprise).' }),
    monthlyQuota: z.int().min(1).optional().meta({ description: 'Custom monthly quota (enterprise).' }),
  })
  .meta({ id: 'CreateTenantRequest', examples: [{ name: 'Acme Bank', tier: 'growth', env: 'live' }] });

export const CreateKeyBody = z
  .strictObject({
    tenantId: z.string().min(1).max(64).meta({ description: TENANT_ID_DESCRIPTION }),
    role: KeyRole,
    name: z.string().min(1).max(200).optional().meta({ description: 'Label of the key for people, up to 200 characters; not secret.' }),
    scopes: z.array(Permission).max(50).optional().meta({ description: SCOPES_DESCRIPTION }),
    expiresAt: Timestamp.optional().meta({ description: EXPIRES_AT_DESCRIPTION }),
    personId: UserId.optional().meta({
      description: `${PERSON_ID_DESCRIPTION} Must be an active person of the tenant (422 otherwise).`,
    }),
  })
  .meta({ id: 'CreateApiKeyRequest', examples: [{ tenantId: exampleId('ten'), role: 'editor' }] });

const opRead = meta({ auth: 'operator', mutating: false });

export const RotatedOperatorCredential = z
  .object({
    object: objectField('svc.operator.credential', OBJECT_EXAMPLE),
    id: prefixedId('opc', 'opc_01JD3Z8W2M6Q4X9V7K5T1B0N3S'),
    name: z.string().meta({ description: 'The name of the credential it replaces.' }),
    token: z.string().meta({ description: 'The new operator credential, shown this once.' }),
    createdAt: CreatedAt,
    revokedCredentialId: prefixedId('opc', 'opc_01JD3Z8W2M6Q4X9V7K5T1B0N3R').meta({
      description: 'The credential that made the call, revoked by it.',
    }),
  })
  .meta({
    id: 'RotatedOperatorCredential',
    examples: [
      {
        object: 'svc.operator.credential',
        id: 'opc_01JD3Z8W2M6Q4X9V7K5T1B0N3S',
        name: 'first-start operator',
        token: 'svc_op_8f2c1d9e7a6b5c4d3e2f1a0b9c8d7e6f',
        createdAt: EXAMPLE_AT,
        revokedCredentialId: 'opc_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
      },
    ],
  });

export const operatorRouter = c.router(
  {
    listTenants: get(
      '/tenants',
      { query: PaginationQuery },
      listOf(Tenant),
      meta({ ...opRead, source: { object: 'svc.operator.tenant' } }),
    ).doc(
      'List tenants',
      'Returns every tenant of the deployment with its tier, environment, region and rate limits, newest first. Operator credential required.',
    ),
    createTenant: post(
      '/tenants',
      { body: CreateTenantBody },
      { 201: z.object({ tenant: Tenant, apiKey: CreatedApiKey }).meta({ id: 'CreatedTenant' }) },
      meta({ auth: 'operator', mutating: true, audit: 'tenant.created' }),
    ).doc(
      'Create a tenant with an owner key',
      "Creates a tenant on the given tier and its first API key with the `owner` role. The key's secret appears once in the response. Operator credential required; audited.",
    ),
    listKeys: get(
      '/keys',
      {
        query: PaginationQuery.extend({
          tenantId: z.string().min(1).max(64).meta({ description: 'Tenant whose keys to list (`ten_` id).' }),
        }),
      },
      listOf(ApiKey),
      meta({ ...opRead, source: { object: 'svc.operator.api_key' } }),
    ).doc(
      "List a tenant's API keys",
      'Returns the API keys of one tenant, without their secrets: prefix, role, scopes, creation, last use and revocation times.',
    ),
    createKey: post(
      '/keys',
      { body: CreateKeyBody },
      { 201: CreatedApiKey },
      meta({ auth: 'operator', mutating: true, audit: 'api_key.created' }),
    ).doc(
      'Create an API key',
      'Creates an API key for a tenant with a role and optional scopes and expiry, bound to a person of the tenant (`personId`) or to none (a service key). The secret `svc_<env>_<random>` appears once in the response and is stored only as a hash.',
    ),
    revokeKey: post(
      '/keys/:id/revoke',
      { pathParams: idParams('key'), body: c.noBody() },
      ApiKey,
      meta({ auth: 'operator', mutating: true, audit: 'api_key.revoked' }),
    ).doc(
      'Revoke an API key',
      'Revokes the key at once: requests with it get 401 `unauthorized` (after at most the auth cache time). Revoking a revoked key returns it unchanged.',
    ),
    rotateSigningKey: post(
      '/signing-keys/rotate',
      { body: c.noBody() },
      { 201: PublicKey },
      meta({ auth: 'operator', mutating: true }),
    ).doc(
      'Rotate the audit-trail signing key',
      'Generates a new Ed25519 key; the old one is retired and stays published so its signatures remain verifiable.',
    ),
    rotateCredential: post(
      '/credentials/rotate',
      { body: c.noBody() },
      { 201: RotatedOperatorCredential },
      meta({ auth: 'operator', mutating: true }),
    ).doc(
      'Rotate the calling operator credential',
      'Issues a new operator credential with the same name, shown once, and revokes the one that made the call, in one transaction. An operator credential acts on every tenant, so the rotation is appended to every tenant audit chain as `operator_credential.rotated` (both credential ids, never a token).',
    ),
  },
  { pathPrefix: '/v1/operator', commonResponses: commonErrorResponses },
);

/** Event types of the operator routes (the tenant lifecycle ones are planned in platform/webhook-events.ts). */
export const operatorEvents = [
  eventType('tenant.api_key_created', 'An API key was issued (the token is never part of the event).', ApiKey),
  eventType('tenant.api_key_revoked', 'An API key was revoked.', ApiKey),
];
