import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp } from './common.ts';
import { commonErrorResponses } from './errors.ts';
import { meta } from './meta.ts';
import { PublicKey } from './rails/audit-trail.ts';
import { ENVIRONMENTS, ROLES, TIERS } from './tiers.ts';
import { eventType } from './webhook-events.ts';

const c = initContract();

const Permission = z
  .string()
  .regex(/^(\*|[a-z_]+):(\*|[a-z_]+)$/)
  .meta({ examples: ['compliance:read'] });

export const Tenant = z
  .object({
    object: z.literal('svc.operator.tenant'),
    id: prefixedId('ten', 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    name: z.string(),
    tier: z.enum(TIERS),
    env: z.enum(ENVIRONMENTS),
    region: z.string(),
    rateLimitPerSecond: z.int().nullable(),
    monthlyQuota: z.int().nullable(),
    createdAt: Timestamp,
  })
  .meta({
    id: 'Tenant',
    examples: [
      {
        object: 'svc.operator.tenant',
        id: 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        name: 'Acme Bank',
        tier: 'growth',
        env: 'live',
        region: 'eu',
        rateLimitPerSecond: null,
        monthlyQuota: null,
        createdAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

export const ApiKey = z
  .object({
    object: z.literal('svc.operator.api_key'),
    id: prefixedId('key', 'key_01JD3Z8W2M6Q4X9V7K5T1B0N3R'),
    tenantId: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    scopes: z.array(z.string()),
    prefix: z.string().meta({ description: 'First characters of the token, to recognise it.' }),
    createdAt: Timestamp,
    expiresAt: Timestamp.nullable(),
    revokedAt: Timestamp.nullable(),
    lastUsedAt: Timestamp.nullable(),
  })
  .meta({ id: 'ApiKey' });

export const CreatedApiKey = ApiKey.extend({
  token: z.string().meta({ description: 'The bearer token, `svc_<env>_<random>`. Shown once, stored hashed.' }),
}).meta({ id: 'CreatedApiKey' });

export const CreateTenantBody = z
  .strictObject({
    name: z.string().min(1).max(200),
    tier: z.enum(TIERS),
    env: z.enum(ENVIRONMENTS).default('live'),
    region: z
      .string()
      .regex(/^[a-z]{2,12}$/)
      .default('eu'),
    rateLimitPerSecond: z.int().min(1).max(100_000).optional().meta({ description: 'Custom limit (enterprise).' }),
    monthlyQuota: z.int().min(1).optional().meta({ description: 'Custom monthly quota (enterprise).' }),
  })
  .meta({ id: 'CreateTenantRequest', examples: [{ name: 'Acme Bank', tier: 'growth', env: 'live' }] });

export const CreateKeyBody = z
  .strictObject({
    tenantId: z.string().min(1).max(64),
    role: z.enum(ROLES),
    name: z.string().min(1).max(200).optional(),
    scopes: z.array(Permission).max(50).optional(),
    expiresAt: Timestamp.optional(),
  })
  .meta({ id: 'CreateApiKeyRequest', examples: [{ tenantId: 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R', role: 'editor' }] });

const opRead = meta({ auth: 'operator', mutating: false });

export const RotatedOperatorCredential = z
  .object({
    object: z.literal('svc.operator.credential'),
    id: prefixedId('opc', 'opc_01JD3Z8W2M6Q4X9V7K5T1B0N3S'),
    name: z.string().meta({ description: 'The name of the credential it replaces.' }),
    token: z.string().meta({ description: 'The new operator credential, shown this once.' }),
    createdAt: Timestamp,
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
        createdAt: '2026-11-22T09:30:00.000Z',
        revokedCredentialId: 'opc_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
      },
    ],
  });

export const operatorRouter = c.router(
  {
    listTenants: {
      method: 'GET',
      path: '/tenants',
      query: PaginationQuery,
      responses: { 200: listOf(Tenant) },
      summary: 'List tenants',
      metadata: opRead,
    },
    createTenant: {
      method: 'POST',
      path: '/tenants',
      body: CreateTenantBody,
      responses: { 201: z.object({ tenant: Tenant, apiKey: CreatedApiKey }).meta({ id: 'CreatedTenant' }) },
      summary: 'Create a tenant with an owner key',
      metadata: meta({ auth: 'operator', mutating: true, audit: 'tenant.created' }),
    },
    listKeys: {
      method: 'GET',
      path: '/keys',
      query: PaginationQuery.extend({ tenantId: z.string().min(1).max(64) }),
      responses: { 200: listOf(ApiKey) },
      summary: "List a tenant's API keys",
      metadata: opRead,
    },
    createKey: {
      method: 'POST',
      path: '/keys',
      body: CreateKeyBody,
      responses: { 201: CreatedApiKey },
      summary: 'Create an API key',
      metadata: meta({ auth: 'operator', mutating: true, audit: 'api_key.created' }),
    },
    revokeKey: {
      method: 'POST',
      path: '/keys/:id/revoke',
      pathParams: z.object({ id: prefixedId('key', 'key_01JD3Z8W2M6Q4X9V7K5T1B0N3R') }),
      body: c.noBody(),
      responses: { 200: ApiKey },
      summary: 'Revoke an API key',
      metadata: meta({ auth: 'operator', mutating: true, audit: 'api_key.revoked' }),
    },
    rotateSigningKey: {
      method: 'POST',
      path: '/signing-keys/rotate',
      body: c.noBody(),
      responses: { 201: PublicKey },
      summary: 'Rotate the audit-trail signing key',
      description: 'Generates a new Ed25519 key; the old one is retired and stays published so its signatures remain verifiable.',
      metadata: meta({ auth: 'operator', mutating: true }),
    },
    rotateCredential: {
      method: 'POST',
      path: '/credentials/rotate',
      body: c.noBody(),
      responses: { 201: RotatedOperatorCredential },
      summary: 'Rotate the calling operator credential',
      description:
        'Issues a new operator credential with the same name, shown once, and revokes the one that made the call, in one transaction. An operator credential acts on every tenant, so the rotation is appended to every tenant audit chain as `operator_credential.rotated` (both credential ids, never a token).',
      metadata: meta({ auth: 'operator', mutating: true }),
    },
  },
  { pathPrefix: '/v1/operator', commonResponses: commonErrorResponses },
);

export const Health = z
  .object({ status: z.enum(['ok']), version: z.string(), database: z.enum(['pglite', 'postgresql']) })
  .meta({ id: 'Health', examples: [{ status: 'ok', version: '0.1.0', database: 'pglite' }] });

export const systemRouter = c.router(
  {
    health: {
      method: 'GET',
      path: '/v1/health',
      responses: { 200: Health, 429: commonErrorResponses[429], 503: commonErrorResponses[503] },
      summary: 'Liveness and database reachability',
      metadata: meta({ auth: 'public', mutating: false }),
    },
  },
  {},
);

/** Event types of the operator routes (the tenant lifecycle ones are planned in webhook-events.ts). */
export const operatorEvents = [
  eventType('tenant.api_key_created', 'An API key was issued (the token is never part of the event).', ApiKey),
  eventType('tenant.api_key_revoked', 'An API key was revoked.', ApiKey),
];
