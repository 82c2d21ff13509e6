import { z } from 'zod';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import { CUSTODIAN_STATUSES, EXAMPLE_HOLD, HOLD_STATUSES, HoldId } from './fields.ts';

/** The litigation hold rail's records, request bodies and their examples (index.ts describes the rail). */

/** Record kinds a hold may cover. */
export const LEGAL_HOLD_RECORD_TYPES = [
  'evidence',
  'assessment',
  'attestation',
  'context_document',
  'incident_disclosure',
  'risk',
  'risk_watch',
  'policy',
  'metadata_label',
  'dsar_request',
  'vendor',
  'whistleblower_report',
] as const;

/** What the preservation log records. */
export const LEGAL_HOLD_PRESERVATION_EVENTS = [
  'hold_created',
  'hold_released',
  'custodian_notified',
  'custodian_acknowledged',
  'deletion_refused',
  'export_created',
] as const;

/** The rail's records' `object` field: its description names the hold as the example. */
const objectOf = <T extends string>(name: T) => objectField(name, 'svc.litigation_hold.hold');

/** The stamps of the rail's changing records: their `updatedAt` says only that. */
const holdStamps = () => stamps('When the record last changed.');

/** The examples' matter, its criteria and the one record it names. */
const EXAMPLE_MATTER = 'Doe v. Example Bank (credit-scoring discrimination claim)';
const EXAMPLE_CRITERIA = { types: ['evidence', 'assessment'], systemId: 'credit-scoring' };
const EXAMPLE_RISK = exampleId('rsk');

export const LegalHoldRecordType = z.enum(LEGAL_HOLD_RECORD_TYPES).meta({
  description:
    'Kind of record: `evidence`, `assessment`, `attestation`, `context_document`, `incident_disclosure`, `risk` (risk register), `risk_watch` (watchlist entry), `policy`, `metadata_label`, `dsar_request`, `vendor`, `whistleblower_report`.',
});

export const LegalHoldTarget = z
  .strictObject({
    type: LegalHoldRecordType,
    id: z
      .string()
      .min(4)
      .max(64)
      .regex(/^[a-z]{2,5}_[0-9A-Za-z]{1,40}$/)
      .meta({ description: 'Id of the record (`rsk_...`, `mlb_...`).', examples: [EXAMPLE_RISK] }),
  })
  .meta({ id: 'LegalHoldTarget', description: 'One record a hold names explicitly.' });

export const LegalHoldCriteria = z
  .strictObject({
    types: z
      .array(LegalHoldRecordType)
      .min(1)
      .max(LEGAL_HOLD_RECORD_TYPES.length)
      .optional()
      .meta({ description: 'Kinds of records matched; every kind when absent.' }),
    systemId: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'Only records of this AI system (kinds that carry a system: evidence, assessments).' }),
    createdFrom: Timestamp.optional().meta({ description: 'Only records created at or after this moment.' }),
    createdTo: Timestamp.optional().meta({ description: 'Only records created at or before this moment.' }),
  })
  .refine((c) => c.types !== undefined || c.systemId !== undefined || c.createdFrom !== undefined || c.createdTo !== undefined, {
    message: 'give at least one of types, systemId, createdFrom, createdTo',
  })
  .refine((c) => !c.createdFrom || !c.createdTo || c.createdFrom <= c.createdTo, {
    message: 'createdFrom is after createdTo',
    path: ['createdTo'],
  })
  .meta({
    id: 'LegalHoldCriteria',
    description:
      'Records matched when the hold is checked (a record created later that matches is held too); all given conditions must hold.',
  });

// ---------------------------------------------------------------- holds

export const LegalHold = z
  .object({
    object: objectOf('svc.litigation_hold.hold'),
    id: HoldId,
    matter: z.string().meta({ description: 'The matter (case, investigation, claim) the hold preserves records for.' }),
    description: z.string().nullable().meta({ description: 'What the hold is about, when given.' }),
    status: z.enum(HOLD_STATUSES).meta({ description: '`active` (holds its records) or `released` (holds nothing).' }),
    records: z.array(LegalHoldTarget).meta({ description: 'Records named explicitly.' }),
    criteria: LegalHoldCriteria.nullable().meta({ description: 'Criteria resolved to records when checked; null when none.' }),
    releaseReason: z.string().nullable().meta({ description: 'Why the hold was released; null while active.' }),
    releasedBy: z.string().nullable().meta({ description: 'Key that released the hold; null while active.' }),
    releasedAt: Timestamp.nullable().meta({ description: 'When the hold was released; null while active.' }),
    ...holdStamps(),
  })
  .meta({
    id: 'LegalHold',
    examples: [
      {
        object: 'svc.litigation_hold.hold',
        id: EXAMPLE_HOLD,
        matter: EXAMPLE_MATTER,
        description: 'Preserve the credit-scoring model records.',
        status: 'active',
        records: [{ type: 'risk', id: EXAMPLE_RISK }],
        criteria: EXAMPLE_CRITERIA,
        releaseReason: null,
        releasedBy: null,
        releasedAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateLegalHoldBody = z
  .strictObject({
    matter: z.string().trim().min(1).max(300).meta({ description: 'The matter the hold preserves records for.' }),
    description: z.string().trim().min(1).max(4000).optional().meta({ description: 'What the hold is about.' }),
    records: z
      .array(LegalHoldTarget)
      .max(500)
      .optional()
      .meta({ description: 'Records to hold by id; each must be a record of the tenant (422 otherwise) when its kind is stored here.' }),
    criteria: LegalHoldCriteria.optional(),
  })
  .refine((b) => (b.records?.length ?? 0) > 0 || b.criteria !== undefined, {
    message: 'give records, criteria or both',
    path: ['records'],
  })
  .meta({
    id: 'CreateLegalHoldRequest',
    examples: [
      {
        matter: EXAMPLE_MATTER,
        description: 'Preserve the credit-scoring model records.',
        criteria: EXAMPLE_CRITERIA,
      },
    ],
  });

export const LegalHeldRecord = z
  .object({
    type: LegalHoldRecordType,
    id: z.string().meta({ description: 'Id of the record.' }),
    via: z.enum(['explicit', 'criteria']).meta({ description: 'Whether the hold names the record or its criteria match it.' }),
  })
  .meta({ id: 'LegalHeldRecord' });

export const LegalHeldRecords = z
  .object({
    object: objectOf('svc.litigation_hold.held_records'),
    holdId: HoldId,
    status: z.enum(HOLD_STATUSES).meta({ description: 'Status of the hold; a released hold holds nothing (empty list).' }),
    records: z.array(LegalHeldRecord).meta({ description: 'Records the hold covers now, by kind then id.' }),
  })
  .meta({
    id: 'LegalHeldRecords',
    examples: [
      {
        object: 'svc.litigation_hold.held_records',
        holdId: EXAMPLE_HOLD,
        status: 'active',
        records: [{ type: 'risk', id: EXAMPLE_RISK, via: 'explicit' }],
      },
    ],
  });

// ---------------------------------------------------------------- custodians

export const LegalHoldCustodian = z
  .object({
    object: objectOf('svc.litigation_hold.custodian'),
    id: prefixedId('lcu', exampleId('lcu')),
    holdId: HoldId,
    stakeholderUserId: z.string().nullable().meta({ description: 'The stakeholder person (`/v1/stakeholders/users`), when one.' }),
    name: z.string().meta({ description: 'Name of the custodian.' }),
    email: z.string().nullable().meta({ description: 'Address the hold notice goes to, when known.' }),
    status: z.enum(CUSTODIAN_STATUSES).meta({ description: '`notified` (notice sent) until the custodian acknowledges it.' }),
    noticeSentAt: Timestamp.meta({ description: 'When the hold notice was sent (the custodian was added).' }),
    acknowledgedAt: Timestamp.nullable().meta({ description: 'When the custodian acknowledged the notice; null until then.' }),
    ...holdStamps(),
  })
  .meta({
    id: 'LegalHoldCustodian',
    examples: [
      {
        object: 'svc.litigation_hold.custodian',
        id: exampleId('lcu'),
        holdId: EXAMPLE_HOLD,
        stakeholderUserId: null,
        name: 'Dana Whitfield',
        email: 'dana.whitfield@example.com',
        status: 'notified',
        noticeSentAt: EXAMPLE_AT,
        acknowledgedAt: null,
        ...exampleStamps(),
      },
    ],
  });

export const CreateLegalHoldCustodianBody = z
  .strictObject({
    holdId: HoldId.meta({ description: 'The hold; an active hold of the tenant (409 when released, 422 when unknown).' }),
    stakeholderUserId: z
      .string()
      .min(4)
      .max(64)
      .optional()
      .meta({ description: 'A person of `/v1/stakeholders/users`; their name and email are used when not given.' }),
    name: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'Name of a free-form custodian; required without `stakeholderUserId`.' }),
    email: z.email().max(254).optional().meta({ description: 'Address the notice goes to.' }),
  })
  .meta({
    id: 'CreateLegalHoldCustodianRequest',
    examples: [{ holdId: EXAMPLE_HOLD, name: 'Dana Whitfield', email: 'dana.whitfield@example.com' }],
  });

// ---------------------------------------------------------------- preservation log

export const LegalHoldPreservationEntry = z
  .object({
    object: objectOf('svc.litigation_hold.preservation_entry'),
    id: prefixedId('lpl', exampleId('lpl')),
    holdId: HoldId.nullable().meta({ description: 'The hold the entry is about.' }),
    event: z.enum(LEGAL_HOLD_PRESERVATION_EVENTS).meta({
      description:
        'What happened: `hold_created`, `hold_released`, `custodian_notified`, `custodian_acknowledged`, `deletion_refused` (a held record’s deletion was refused), `export_created`.',
    }),
    targetType: z.string().nullable().meta({ description: 'Kind of the record concerned (custodian, held record, export).' }),
    targetId: z.string().nullable().meta({ description: 'Id of the record concerned.' }),
    actor: z.string().nullable().meta({ description: 'Key whose request caused the entry, when known.' }),
    detail: z.record(z.string(), z.unknown()).meta({ description: 'Particulars (reason, correlation id, counts).' }),
    at: Timestamp.meta({ description: 'When it happened.' }),
  })
  .meta({
    id: 'LegalHoldPreservationEntry',
    examples: [
      {
        object: 'svc.litigation_hold.preservation_entry',
        id: exampleId('lpl'),
        holdId: EXAMPLE_HOLD,
        event: 'deletion_refused',
        targetType: 'metadata_label',
        targetId: exampleId('mlb'),
        actor: EXAMPLE_KEY,
        detail: { correlationId: exampleId('cor') },
        at: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- ediscovery

export const LegalHoldExportedRecord = z
  .object({
    type: LegalHoldRecordType,
    id: z.string().meta({ description: 'Id of the record.' }),
    sha256: z.string().meta({ description: 'SHA-256 (hex) of the canonical JSON of `content` (keys sorted, no spaces).' }),
    content: z.record(z.string(), z.unknown()).meta({
      description: 'The stored record, every field (timestamps in ISO 8601) but the tenant id and the secrets listed in `redactedFields`.',
    }),
    redactedFields: z.array(z.string()).meta({
      description:
        'Fields left out of `content` because no role may read them (sealed reporter identities, access-code hashes, secrets, tokens).',
    }),
  })
  .meta({ id: 'LegalHoldExportedRecord' });

export const LegalHoldExportManifest = z
  .object({
    holdId: HoldId,
    matter: z.string().meta({ description: 'Matter of the hold.' }),
    algorithm: z.literal('sha256').meta({ description: 'Hash algorithm of every digest.' }),
    generatedAt: Timestamp.meta({ description: 'When the export was made.' }),
    records: z
      .array(
        z.object({
          type: LegalHoldRecordType,
          id: z.string().meta({ description: 'Id.' }),
          sha256: z.string().meta({ description: 'Digest.' }),
        }),
      )
      .meta({ description: 'Every exported record with its digest, by kind then id.' }),
  })
  .meta({ id: 'LegalHoldExportManifest', description: 'What `manifestHash` is the SHA-256 of (canonical JSON).' });

/** The example export's one record, as its manifest lists it. */
const EXPORTED_RISK_EXAMPLE = {
  type: 'risk',
  id: EXAMPLE_RISK,
  sha256: '9f2c6d1b0e8a7c4f3b2a19d8e7f6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4',
};

export const LegalHoldEdiscoveryExport = z
  .object({
    object: objectOf('svc.litigation_hold.ediscovery_export'),
    id: prefixedId('led', exampleId('led')),
    holdId: HoldId,
    recordCount: z.int().min(0).meta({ description: 'Number of records exported.' }),
    manifest: LegalHoldExportManifest,
    manifestHash: z.string().meta({ description: 'SHA-256 (hex) of the canonical JSON of `manifest` (keys sorted, no spaces).' }),
    records: z.array(LegalHoldExportedRecord).meta({ description: 'The held records’ contents, in manifest order.' }),
    ...created(),
  })
  .meta({
    id: 'LegalHoldEdiscoveryExport',
    examples: [
      {
        object: 'svc.litigation_hold.ediscovery_export',
        id: exampleId('led'),
        holdId: EXAMPLE_HOLD,
        recordCount: 1,
        manifest: {
          holdId: EXAMPLE_HOLD,
          matter: EXAMPLE_MATTER,
          algorithm: 'sha256',
          generatedAt: EXAMPLE_AT,
          records: [EXPORTED_RISK_EXAMPLE],
        },
        manifestHash: '1b4f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7',
        records: [
          {
            ...EXPORTED_RISK_EXAMPLE,
            content: { id: EXAMPLE_RISK, title: 'Biased credit-scoring model', domain: 'ai' },
            redactedFields: [],
          },
        ],
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateLegalHoldExportBody = z
  .strictObject({ holdId: HoldId.meta({ description: 'The hold whose records to export; an active hold (409 when released).' }) })
  .meta({ id: 'CreateLegalHoldExportRequest', examples: [{ holdId: EXAMPLE_HOLD }] });
