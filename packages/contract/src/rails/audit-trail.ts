import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { AUDIT_EXPORT_FORMAT } from '../audit-chain.ts';
import { listOf, PaginationQuery, Seq, Timestamp } from '../common.ts';
import { commonErrorResponses } from '../errors.ts';
import { meta } from '../meta.ts';

const c = initContract();

export const AuditTrailEvent = z
  .object({
    object: z.literal('svc.audit_trail.event').meta({
      description:
        'Type of the object, constant for the schema (for example `svc.compliance.assessment`); lets a client tell records apart in mixed lists and webhook payloads.',
    }),
    id: z.string().meta({ description: 'Identifier of the audit event.' }),
    tenantId: z.string().meta({ description: 'Id of the tenant (`ten_` prefix) the record belongs to.' }),
    seq: z.int().min(1).meta({ description: 'Position in the tenant chain, from 1, without gaps.' }),
    prevHash: z.string().meta({ description: 'Hash of the event before (64 zeros for seq 1).' }),
    hash: z.string().meta({ description: 'SHA-256 (hex) of the canonical JSON of the event without hash and signature.' }),
    signature: z.string().meta({ description: 'Ed25519 signature of the hash, base64url.' }),
    keyId: z.string().meta({ description: 'Id of the Ed25519 key that signed the event.' }),
    actor: z.string().meta({ description: 'Who acted: the API key id, operator credential id or `system`.' }),
    action: z.string().meta({ description: 'Audit action (`assessment.created`).' }),
    resourceType: z.string().meta({ description: 'Kind of resource acted on (`assessment`).' }),
    resourceId: z.string().meta({ description: 'Id of the resource acted on.' }),
    correlationId: z
      .string()
      .meta({ description: 'Correlation id shared by every record one request or job produced (the `X-Correlation-Id` of the request).' }),
    timestamp: Timestamp.meta({ description: 'When the action happened (ISO 8601 UTC).' }),
    data: z.record(z.string(), z.unknown()).meta({ description: 'What changed: the request body or the changed fields, as recorded.' }),
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
    keyId: z.string().meta({ description: 'Id of the Ed25519 key that signed the event.' }),
    algorithm: z.literal('ed25519').meta({ description: 'Signature algorithm (`ed25519`).' }),
    publicKey: z.string().meta({ description: 'SubjectPublicKeyInfo, DER, base64.' }),
    createdAt: Timestamp.meta({ description: 'When the record was created: ISO 8601 UTC timestamp with milliseconds.' }),
    retiredAt: Timestamp.nullable().meta({ description: 'When the key stopped signing (ISO 8601 UTC); null for the current key.' }),
  })
  .meta({ id: 'AuditPublicKey' });

const SeqRange = {
  fromSeq: Seq.optional().meta({ description: 'First sequence number of the range, inclusive, from 1.' }),
  toSeq: Seq.optional().meta({ description: 'Last sequence number of the range, inclusive; not below `fromSeq`.' }),
};

export const AuditQueryBody = z
  .strictObject({
    actor: z.string().max(64).optional().meta({ description: 'Who acted: the API key id, operator credential id or `system`.' }),
    action: z.string().max(128).optional().meta({ description: 'Audit action (`assessment.created`).' }),
    resourceType: z.string().max(128).optional().meta({ description: 'Kind of resource acted on (`assessment`).' }),
    resourceId: z.string().max(128).optional().meta({ description: 'Id of the resource acted on.' }),
    from: Timestamp.optional().meta({ description: 'Events at or after this time.' }),
    to: Timestamp.optional().meta({ description: 'Events before this time.' }),
    limit: z.int().min(1).max(200).default(50).meta({ description: 'Page size, 1 to 200; default 50.' }),
    cursor: z.string().min(1).max(512).optional().meta({ description: 'Opaque cursor from the previous page; absent for the first page.' }),
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
    format: z.literal(AUDIT_EXPORT_FORMAT).meta({ description: 'Format and version of the export.' }),
    tenantId: z.string().meta({ description: 'Id of the tenant (`ten_` prefix) the record belongs to.' }),
    exportedAt: Timestamp.meta({ description: 'When the export was produced (ISO 8601 UTC).' }),
    range: z
      .object({
        fromSeq: z.int().meta({ description: 'First sequence number of the range, inclusive.' }),
        toSeq: z.int().meta({ description: 'Last sequence number of the range, inclusive.' }),
      })
      .meta({ description: 'The sequence range covered, inclusive.' }),
    anchor: z
      .object({
        seq: z.int().meta({ description: 'Sequence number of the event just before the range; 0 when the range starts the chain.' }),
        hash: z.string().meta({ description: 'Lowercase hex SHA-256 of that event; the first exported event links to it.' }),
      })
      .meta({ description: 'The link the first exported event must follow.' }),
    head: z
      .object({
        seq: z.int().meta({ description: 'Sequence number of the newest event of the chain.' }),
        hash: z.string().meta({ description: 'Lowercase hex SHA-256 of the newest event.' }),
      })
      .meta({ description: 'The chain head when the export was taken.' }),
    publicKeys: z.array(PublicKey).meta({ description: 'Public keys that signed the events of the range.' }),
    events: z.array(AuditTrailEvent).meta({ description: 'The events of the range, in sequence order.' }),
  })
  .meta({ id: 'AuditExport', description: 'Self-contained: verifiable offline with `svc audit verify <file>`.' });

export const AuditReplay = z
  .object({
    object: z.literal('svc.audit_trail.replay').meta({
      description:
        'Type of the object, constant for the schema (for example `svc.compliance.assessment`); lets a client tell records apart in mixed lists and webhook payloads.',
    }),
    valid: z.boolean().meta({ description: 'True when every link, hash and signature of the range checks out.' }),
    checked: z.int().meta({ description: 'Number of events checked.' }),
    range: z
      .object({
        fromSeq: z.int().meta({ description: 'First sequence number of the range, inclusive.' }),
        toSeq: z.int().meta({ description: 'Last sequence number of the range, inclusive.' }),
      })
      .meta({ description: 'The sequence range covered, inclusive.' }),
    firstBroken: z
      .object({
        seq: z.int().meta({ description: 'Sequence number of the event that fails.' }),
        id: z.string().meta({ description: 'Id of that audit event.' }),
        reason: z.string().meta({ description: 'What failed: the link to the previous event, the hash or the signature.' }),
        message: z.string().meta({ description: 'Human-readable explanation of the failure.' }),
      })
      .nullable()
      .meta({ description: 'The first link that does not verify; null when the range is intact.' }),
    decisions: z
      .object({
        replayed: z.int().meta({ description: 'Number of decisions re-executed.' }),
        mismatched: z.int().meta({ description: 'Number whose re-executed result hash differs from the recorded one.' }),
      })
      .meta({
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
      description:
        "Returns the tenant's audit events, newest first, as `{ data, cursor }`: every mutating call writes one in the same transaction as its change, hash-chained (`seq`, `prevHash`, `hash`) and signed. Needs `audit_trail:read`.",
      metadata: read,
    },
    query: {
      method: 'POST',
      path: '/query',
      body: AuditQueryBody,
      responses: { 200: listOf(AuditTrailEvent) },
      summary: 'Query audit-trail events by actor, action, resource and time range',
      description:
        'Returns the audit events that match every given criterion (actor, action, resource type and id, time range), newest first, paginated by `cursor`. A POST so that long criteria fit in the body; it reads only, and an `Idempotency-Key` has no further effect.',
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
      description:
        'Recomputes every hash of a `seq` range, checks each event links to the one before and verifies each signature with its key; returns `valid` and the first mismatches found. Reads only: nothing is repaired.',
      metadata: read,
    },
    keys: {
      method: 'GET',
      path: '/keys',
      responses: { 200: z.object({ data: z.array(PublicKey).meta({ description: 'Every signing key, current and retired.' }) }) },
      summary: 'Public keys that sign the audit trail, retired ones included',
      description:
        "Returns the Ed25519 public keys that have signed this deployment's audit trail, with their key ids, creation and retirement times, so that events signed before a rotation still verify.",
      metadata: read,
    },
  },
  { pathPrefix: '/v1/audit-trail', commonResponses: commonErrorResponses },
);
