import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { AUDIT_EXPORT_FORMAT } from '../../platform/audit-chain.ts';
import { get, policyOf, post } from '../../platform/declare.ts';
import { commonErrorResponses } from '../../platform/errors.ts';
import { listOf, PaginationQuery, Seq, Timestamp } from '../../shared/common.ts';
import { CREATED_AT_DESCRIPTION, EXAMPLE_AT, EXAMPLE_KEY, exampleId, objectField } from '../../shared/records.ts';

const c = initContract();

/** `object` of a record of the rail; its description names a compliance assessment as the example. */
function trailObject<const T extends string>(name: T) {
  return objectField(name, 'svc.compliance.assessment');
}

// What an event says and what a query filters it by, in the same words.
const TENANT_ID = 'Id of the tenant (`ten_` prefix) the record belongs to.';
const KEY_ID = 'Id of the Ed25519 key that signed the event.';
const ACTOR =
  "Who acted: the API key id, operator credential id or `system`; for a person's own act (an approval step, a risk sign-off), the person's id (`usr_`), with the key in `data.credentialId`.";
const ACTION = 'Audit action (`assessment.created`).';
const RESOURCE_TYPE = 'Kind of resource acted on (`assessment`).';
const RESOURCE_ID = 'Id of the resource acted on.';

export const AuditTrailEvent = z
  .object({
    object: trailObject('svc.audit_trail.event'),
    id: z.string().meta({ description: 'Identifier of the audit event.' }),
    tenantId: z.string().meta({ description: TENANT_ID }),
    seq: z.int().min(1).meta({ description: 'Position in the tenant chain, from 1, without gaps.' }),
    prevHash: z.string().meta({ description: 'Hash of the event before (64 zeros for seq 1).' }),
    hash: z.string().meta({ description: 'SHA-256 (hex) of the canonical JSON of the event without hash and signature.' }),
    signature: z.string().meta({ description: 'Ed25519 signature of the hash, base64url.' }),
    keyId: z.string().meta({ description: KEY_ID }),
    actor: z.string().meta({ description: ACTOR }),
    action: z.string().meta({ description: ACTION }),
    resourceType: z.string().meta({ description: RESOURCE_TYPE }),
    resourceId: z.string().meta({ description: RESOURCE_ID }),
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
        id: exampleId('aud'),
        tenantId: exampleId('ten'),
        seq: 42,
        prevHash: '9f2c7a1e4b5d6978812345678901234567890abcdef1234567890abcdef1234',
        hash: '1b4e9d2c7a3f6e5d4c3b2a1908f7e6d5c4b3a29180f7e6d5c4b3a2918f7e6d5c',
        signature: 'q0r8v3Jk1mFh2yB6Qe5pW9tXz7LcDn4sAu0oGiKlMjNvHbRfTy8ExZ1wSdP3gUcV4aYbQ2eR6tW9xZ1cV3bN5mA',
        keyId: 'sk_5f2c7a9e1b3d4c6e8f0a2b4c',
        actor: EXAMPLE_KEY,
        action: 'assessment.created',
        resourceType: 'svc.compliance.assessment',
        resourceId: exampleId('asm'),
        correlationId: exampleId('cor'),
        timestamp: EXAMPLE_AT,
        data: { type: 'fria', systemId: 'sys_credit_scoring_v2' },
      },
    ],
  });

export const PublicKey = z
  .object({
    keyId: z.string().meta({ description: KEY_ID }),
    algorithm: z.literal('ed25519').meta({ description: 'Signature algorithm (`ed25519`).' }),
    publicKey: z.string().meta({ description: 'SubjectPublicKeyInfo, DER, base64.' }),
    createdAt: Timestamp.meta({ description: CREATED_AT_DESCRIPTION }),
    retiredAt: Timestamp.nullable().meta({ description: 'When the key stopped signing (ISO 8601 UTC); null for the current key.' }),
  })
  .meta({ id: 'AuditPublicKey' });

const SeqRange = {
  fromSeq: Seq.optional().meta({ description: 'First sequence number of the range, inclusive, from 1.' }),
  toSeq: Seq.optional().meta({ description: 'Last sequence number of the range, inclusive; not below `fromSeq`.' }),
};

export const AuditQueryBody = z
  .strictObject({
    actor: z.string().max(64).optional().meta({ description: ACTOR }),
    action: z.string().max(128).optional().meta({ description: ACTION }),
    resourceType: z.string().max(128).optional().meta({ description: RESOURCE_TYPE }),
    resourceId: z.string().max(128).optional().meta({ description: RESOURCE_ID }),
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

/** The `seq` range an export or a replay covered. */
const RangeCovered = z
  .object({
    fromSeq: z.int().meta({ description: 'First sequence number of the range, inclusive.' }),
    toSeq: z.int().meta({ description: 'Last sequence number of the range, inclusive.' }),
  })
  .meta({ description: 'The sequence range covered, inclusive.' });

/** A point of the chain: a sequence number and the hash of the event there. */
function chainLink(seq: string, hash: string) {
  return z.object({ seq: z.int().meta({ description: seq }), hash: z.string().meta({ description: hash }) });
}

export const AuditExportSeal = z
  .object({
    algorithm: z.literal('ed25519').meta({ description: 'Signature algorithm (`ed25519`).' }),
    keyId: z.string().meta({ description: 'Id of the Ed25519 key that signed the seal: the active signing key at `exportedAt`.' }),
    tenantId: z.string().meta({ description: TENANT_ID }),
    exportedAt: Timestamp.meta({ description: 'When the sealed range was read (ISO 8601 UTC).' }),
    range: RangeCovered,
    anchor: chainLink('Sequence number of the event just before the range; 0 at the start of the chain.', 'Hash of that event.').meta({
      description: 'The link the first event of the range follows.',
    }),
    last: chainLink('Sequence number of the last event of the range (the anchor when the range is empty).', 'Hash of that event.').meta({
      description: 'The last event of the range.',
    }),
    head: chainLink('Sequence number of the newest event of the chain at `exportedAt`.', 'Hash of that event.').meta({
      description: 'The chain head when the range was read.',
    }),
    hash: z
      .string()
      .meta({ description: 'SHA-256 (hex) of the canonical JSON of the statement (tenant, time, range, anchor, last, head).' }),
    signature: z.string().meta({ description: 'Ed25519 signature of `hash`, base64url, made as the events are signed.' }),
  })
  .meta({
    id: 'AuditExportSeal',
    description:
      "The service's signed statement of a range: with it a verifier refuses an export whose newest events were dropped or whose range was relabelled.",
  });

export const AuditExport = z
  .object({
    format: z.literal(AUDIT_EXPORT_FORMAT).meta({ description: 'Format and version of the export.' }),
    tenantId: z.string().meta({ description: TENANT_ID }),
    exportedAt: Timestamp.meta({ description: 'When the export was produced (ISO 8601 UTC).' }),
    range: RangeCovered,
    anchor: chainLink(
      'Sequence number of the event just before the range; 0 when the range starts the chain.',
      'Lowercase hex SHA-256 of that event; the first exported event links to it.',
    ).meta({ description: 'The link the first exported event must follow.' }),
    head: chainLink('Sequence number of the newest event of the chain.', 'Lowercase hex SHA-256 of the newest event.').meta({
      description: 'The chain head when the export was taken.',
    }),
    publicKeys: z.array(PublicKey).meta({ description: 'Public keys that signed the events of the range.' }),
    events: z.array(AuditTrailEvent).meta({ description: 'The events of the range, in sequence order.' }),
    seals: z.array(AuditExportSeal).min(1).meta({
      description:
        'Signed statements of the range, anchor and head: one from `POST /v1/audit-trail/export`; a document joined from consecutive exports (`svc audit export`) carries the seal of each piece, in order.',
    }),
  })
  .meta({ id: 'AuditExport', description: 'Self-contained: verifiable offline with `svc audit verify <file>`.' });

export const AuditReplay = z
  .object({
    object: trailObject('svc.audit_trail.replay'),
    valid: z.boolean().meta({ description: 'True when every link, hash and signature of the range checks out.' }),
    checked: z.int().meta({ description: 'Number of events checked.' }),
    range: RangeCovered,
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

const { read } = policyOf('audit_trail', 'audit');

export const auditTrailRouter = c.router(
  {
    events: get('/events', { query: PaginationQuery }, listOf(AuditTrailEvent), read).doc(
      'List audit-trail events, newest first',
      "Returns the tenant's audit events, newest first, as `{ data, cursor }`: every mutating call writes one in the same transaction as its change, hash-chained (`seq`, `prevHash`, `hash`) and signed. Needs `audit_trail:read`.",
    ),
    query: post('/query', { body: AuditQueryBody }, listOf(AuditTrailEvent), read).doc(
      'Query audit-trail events by actor, action, resource and time range',
      'Returns the audit events that match every given criterion (actor, action, resource type and id, time range), newest first, paginated by `cursor`. A POST so that long criteria fit in the body; it reads only; a repeat with the same `Idempotency-Key` within 24 h replays the first answer.',
    ),
    export: post('/export', { body: AuditRangeBody }, AuditExport, read).doc(
      'Export a range of the chain with its anchor, head, public keys and signed seal',
      'At most 50,000 events per export; ask for consecutive ranges beyond that. The seal, signed by the active signing key, binds the range, the event before it and the chain head, so that `svc audit verify` refuses an export whose newest events were dropped or whose range was relabelled.',
    ),
    replay: post('/replay', { body: AuditRangeBody }, AuditReplay, read).doc(
      'Re-verify a range: links, hashes and signatures',
      'Recomputes every hash of a `seq` range, checks each event links to the one before and verifies each signature with its key; returns `valid` and the first mismatches found. Reads only: nothing is repaired.',
    ),
    keys: get(
      '/keys',
      {},
      z.object({ data: z.array(PublicKey).meta({ description: 'Every signing key, current and retired.' }) }),
      read,
    ).doc(
      'Public keys that sign the audit trail, retired ones included',
      "Returns the Ed25519 public keys that have signed this deployment's audit trail, with their key ids, creation and retirement times, so that events signed before a rotation still verify.",
    ),
  },
  { pathPrefix: '/v1/audit-trail', commonResponses: commonErrorResponses },
);
