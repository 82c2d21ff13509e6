import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { AUDIT_EXPORT_FORMAT } from '../audit-chain.ts';
import { listOf, PaginationQuery, Seq, Timestamp } from '../common.ts';
import { commonErrorResponses } from '../errors.ts';
import { meta } from '../meta.ts';

const c = initContract();

export const AuditTrailEvent = z
  .object({
    object: z.literal('svc.audit_trail.event'),
    id: z.string(),
    tenantId: z.string(),
    seq: z.int().min(1).meta({ description: 'Position in the tenant chain, from 1, without gaps.' }),
    prevHash: z.string().meta({ description: 'Hash of the event before (64 zeros for seq 1).' }),
    hash: z.string().meta({ description: 'SHA-256 (hex) of the canonical JSON of the event without hash and signature.' }),
    signature: z.string().meta({ description: 'Ed25519 signature of the hash, base64url.' }),
    keyId: z.string(),
    actor: z.string(),
    action: z.string(),
    resourceType: z.string(),
    resourceId: z.string(),
    correlationId: z.string(),
    timestamp: Timestamp,
    data: z.record(z.string(), z.unknown()),
  })
  .meta({
    id: 'AuditTrailEvent',
    examples: [
      {
        object: 'svc.audit_trail.event',
        id: 'aud_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        tenantId: 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        seq: 42,
        prevHash: '9f2c7a1e4b5d6978812345678901234567890abcdef1234567890abcdef1234',
        hash: '1b4e9d2c7a3f6e5d4c3b2a1908f7e6d5c4b3a29180f7e6d5c4b3a2918f7e6d5c',
        signature: 'q0r8v3Jk1mFh2yB6Qe5pW9tXz7LcDn4sAu0oGiKlMjNvHbRfTy8ExZ1wSdP3gUcV4aYbQ2eR6tW9xZ1cV3bN5mA',
        keyId: 'sk_5f2c7a9e1b3d4c6e8f0a2b4c',
        actor: 'key_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        action: 'assessment.created',
        resourceType: 'svc.compliance.assessment',
        resourceId: 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        correlationId: 'cor_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        timestamp: '2026-11-22T09:30:00.000Z',
        data: { type: 'fria', systemId: 'sys_credit_scoring_v2' },
      },
    ],
  });

export const PublicKey = z
  .object({
    keyId: z.string(),
    algorithm: z.literal('ed25519'),
    publicKey: z.string().meta({ description: 'SubjectPublicKeyInfo, DER, base64.' }),
    createdAt: Timestamp,
    retiredAt: Timestamp.nullable(),
  })
  .meta({ id: 'AuditPublicKey' });

const SeqRange = {
  fromSeq: Seq.optional(),
  toSeq: Seq.optional(),
};

export const AuditQueryBody = z
  .strictObject({
    actor: z.string().max(64).optional(),
    action: z.string().max(128).optional(),
    resourceType: z.string().max(128).optional(),
    resourceId: z.string().max(128).optional(),
    from: Timestamp.optional().meta({ description: 'Events at or after this time.' }),
    to: Timestamp.optional().meta({ description: 'Events before this time.' }),
    limit: z.int().min(1).max(200).default(50),
    cursor: z.string().min(1).max(512).optional(),
  })
  .meta({ id: 'AuditQueryRequest', examples: [{ action: 'assessment.created', from: '2026-11-01T00:00:00.000Z', limit: 50 }] });

export const AuditRangeBody = z
  .strictObject(SeqRange)
  .refine((b) => b.fromSeq === undefined || b.toSeq === undefined || b.fromSeq <= b.toSeq, {
    path: ['toSeq'],
    message: 'toSeq must not be below fromSeq',
  })
  .meta({ id: 'AuditRangeRequest', examples: [{ fromSeq: 1, toSeq: 500 }] });

export const AuditExport = z
  .object({
    format: z.literal(AUDIT_EXPORT_FORMAT),
    tenantId: z.string(),
    exportedAt: Timestamp,
    range: z.object({ fromSeq: z.int(), toSeq: z.int() }),
    anchor: z.object({ seq: z.int(), hash: z.string() }).meta({ description: 'The link the first exported event must follow.' }),
    head: z.object({ seq: z.int(), hash: z.string() }).meta({ description: 'The chain head when the export was taken.' }),
    publicKeys: z.array(PublicKey),
    events: z.array(AuditTrailEvent),
  })
  .meta({ id: 'AuditExport', description: 'Self-contained: verifiable offline with `svc audit verify <file>`.' });

export const AuditReplay = z
  .object({
    object: z.literal('svc.audit_trail.replay'),
    valid: z.boolean(),
    checked: z.int(),
    range: z.object({ fromSeq: z.int(), toSeq: z.int() }),
    firstBroken: z
      .object({ seq: z.int(), id: z.string(), reason: z.string(), message: z.string() })
      .nullable()
      .meta({ description: 'The first link that does not verify; null when the range is intact.' }),
    decisions: z.object({ replayed: z.int(), mismatched: z.int() }).meta({
      description: 'Agent decisions in the range re-executed and compared by hash.',
    }),
  })
  .meta({ id: 'AuditReplay' });

const read = meta({ auth: 'tenant', rail: 'audit_trail', permission: 'audit:read', mutating: false });

export const auditTrailRouter = c.router(
  {
    events: {
      method: 'GET',
      path: '/events',
      query: PaginationQuery,
      responses: { 200: listOf(AuditTrailEvent) },
      summary: 'List audit-trail events, newest first',
      metadata: read,
    },
    query: {
      method: 'POST',
      path: '/query',
      body: AuditQueryBody,
      responses: { 200: listOf(AuditTrailEvent) },
      summary: 'Query audit-trail events by actor, action, resource and time range',
      metadata: read,
    },
    export: {
      method: 'POST',
      path: '/export',
      body: AuditRangeBody,
      responses: { 200: AuditExport },
      summary: 'Export a range of the chain with its anchor, head and public keys',
      description: 'At most 50,000 events per export; ask for consecutive ranges beyond that.',
      metadata: read,
    },
    replay: {
      method: 'POST',
      path: '/replay',
      body: AuditRangeBody,
      responses: { 200: AuditReplay },
      summary: 'Re-verify a range: links, hashes and signatures',
      metadata: read,
    },
    keys: {
      method: 'GET',
      path: '/keys',
      responses: { 200: z.object({ data: z.array(PublicKey) }) },
      summary: 'Public keys that sign the audit trail, retired ones included',
      metadata: read,
    },
  },
  { pathPrefix: '/v1/audit-trail', commonResponses: commonErrorResponses },
);
