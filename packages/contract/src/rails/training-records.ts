import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp, UserId } from '../common.ts';
import { meta } from '../meta.ts';
import { claimIdPrefix, railRouter, resource } from '../resource.ts';

/**
 * The training-records rail: training modules required of organisational roles (people and roles
 * of the stakeholders rail), completion records, the coverage of each role (who is trained, who is
 * overdue; AI literacy under Art. 4 of the EU AI Act is the usual case) and a signed certificate per
 * completion that anyone holding its code can verify.
 */

claimIdPrefix('tcf', 'svc.training_records.certificate');

const objectDescription =
  'Type of the object, constant for the schema (for example `svc.training_records.module`); lets a client tell records apart in mixed lists and webhook payloads.';
const createdByDescription = 'Id of the API key (or operator credential) whose request created the record.';
const createdAtDescription = 'When the record was created: ISO 8601 UTC timestamp with milliseconds.';

const ModuleId = prefixedId('tmd', 'tmd_01JD3Z8W2M6Q4X9V7K5T1B0N3R');
const RoleId = prefixedId('rol', 'rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R');
const RecordId = prefixedId('trc', 'trc_01JD3Z8W2M6Q4X9V7K5T1B0N3R');
const CertificateId = prefixedId('tcf', 'tcf_01JD3Z8W2M6Q4X9V7K5T1B0N3R');
const FrameworkId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}$/)
  .meta({ description: 'Id of a shipped framework dictionary (`eu-ai-act`).', examples: ['eu-ai-act'] });

const FrameworkRef = z.strictObject({
  framework: FrameworkId,
  reference: z.string().min(1).max(100).meta({ description: 'The provision the module answers (`Art. 4`).' }),
});

// ---------------------------------------------------------------- modules

export const TrainingModule = z
  .object({
    object: z.literal('svc.training_records.module').meta({ description: objectDescription }),
    id: ModuleId,
    title: z.string().meta({ description: 'Title of the module.' }),
    description: z.string().nullable().meta({ description: 'What the module teaches; null when not given.' }),
    requiredForRoleIds: z
      .array(z.string())
      .meta({ description: 'Roles (`rol_`) whose active holders must complete the module; empty when it is optional.' }),
    validityDays: z
      .int()
      .min(1)
      .nullable()
      .meta({ description: 'Days a completion stays valid before it must be renewed; null when it does not expire.' }),
    frameworkRefs: z.array(FrameworkRef).meta({ description: 'Provisions the module answers (`eu-ai-act` `Art. 4`).' }),
    createdBy: z.string().meta({ description: createdByDescription }),
    createdAt: Timestamp.meta({ description: createdAtDescription }),
  })
  .meta({
    id: 'TrainingModule',
    examples: [
      {
        object: 'svc.training_records.module',
        id: 'tmd_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        title: 'AI literacy basics',
        description: 'What AI systems are, their risks and how to use them responsibly.',
        requiredForRoleIds: ['rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R'],
        validityDays: 365,
        frameworkRefs: [{ framework: 'eu-ai-act', reference: 'Art. 4' }],
        createdBy: 'key_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        createdAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

export const CreateTrainingModuleBody = z
  .strictObject({
    title: z.string().min(1).max(200).meta({ description: 'Title of the module.' }),
    description: z.string().min(1).max(2000).optional().meta({ description: 'What the module teaches, up to 2,000 characters.' }),
    requiredForRoleIds: z.array(RoleId).max(50).meta({
      description:
        'Roles of the tenant whose holders must complete the module, each once (an unknown role is 422); empty for an optional module.',
    }),
    validityDays: z
      .int()
      .min(1)
      .max(3650)
      .optional()
      .meta({ description: 'Days a completion stays valid, 1 to 3,650; never expires when absent.' }),
    frameworkRefs: z
      .array(FrameworkRef)
      .max(20)
      .optional()
      .meta({ description: 'Provisions the module answers; the framework must be a shipped dictionary (422 otherwise).' }),
  })
  .meta({
    id: 'CreateTrainingModuleRequest',
    examples: [
      {
        title: 'AI literacy basics',
        description: 'What AI systems are, their risks and how to use them responsibly.',
        requiredForRoleIds: [],
        validityDays: 365,
        frameworkRefs: [{ framework: 'eu-ai-act', reference: 'Art. 4' }],
      },
      {
        title: 'AI literacy for ML engineers',
        requiredForRoleIds: ['rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R'],
        validityDays: 365,
        frameworkRefs: [{ framework: 'eu-ai-act', reference: 'Art. 4' }],
      },
    ],
  });

export const trainingModules = resource({
  rail: 'training_records',
  path: 'modules',
  name: 'module',
  label: { one: 'training module', many: 'training modules' },
  idPrefix: 'tmd',
  record: TrainingModule,
  create: {
    body: CreateTrainingModuleBody,
    action: 'training.module_created',
    summary: 'Define a training module',
    description: 'Defines a module, the roles that must complete it and how long a completion stays valid.',
    eventSummary: 'A training module was defined.',
  },
});

// ---------------------------------------------------------------- records and certificates

export const TrainingRecord = z
  .object({
    object: z.literal('svc.training_records.record').meta({ description: objectDescription }),
    id: RecordId,
    moduleId: z.string().meta({ description: 'Id of the module completed (`tmd_`).' }),
    userId: z.string().meta({ description: 'Id of the person (`usr_`) who completed it.' }),
    completedAt: Timestamp.meta({ description: 'When the person completed the module.' }),
    score: z.int().min(0).max(100).nullable().meta({ description: 'Score in percent, 0 to 100; null when not scored.' }),
    expiresAt: Timestamp.nullable().meta({
      description: "When the completion stops counting: `completedAt` plus the module's `validityDays`; null when it does not expire.",
    }),
    expired: z.boolean().meta({ description: 'True when `expiresAt` is in the past at the time of the response.' }),
    certificateId: z.string().meta({ description: 'Id of the certificate (`tcf_`) issued for the completion.' }),
    createdBy: z.string().meta({ description: createdByDescription }),
    createdAt: Timestamp.meta({ description: createdAtDescription }),
  })
  .meta({
    id: 'TrainingRecord',
    examples: [
      {
        object: 'svc.training_records.record',
        id: 'trc_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        moduleId: 'tmd_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        userId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        completedAt: '2026-11-20T14:00:00.000Z',
        score: 92,
        expiresAt: '2027-11-20T14:00:00.000Z',
        expired: false,
        certificateId: 'tcf_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        createdBy: 'key_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        createdAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

export const CreateTrainingRecordBody = z
  .strictObject({
    moduleId: ModuleId.meta({ description: 'Id of a module of the tenant; an unknown one is 422.' }),
    userId: UserId.meta({ description: 'Id of a person of the tenant; an unknown one is 422.' }),
    completedAt: Timestamp.optional().meta({
      description: 'When the module was completed (ISO 8601 UTC), not in the future; now when absent.',
    }),
    score: z.int().min(0).max(100).optional().meta({ description: 'Score in percent, 0 to 100.' }),
  })
  .meta({
    id: 'CreateTrainingRecordRequest',
    examples: [
      {
        moduleId: 'tmd_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        userId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        completedAt: '2026-11-20T14:00:00.000Z',
        score: 92,
      },
    ],
  });

/**
 * The completion records' list, from the kit. The create stays a route of its own: it issues the
 * signed certificate with the record and emits `training.completed` with the person as `principal`
 * and `training.certificate_issued`, payloads the kit's create (the record as the event) cannot carry.
 */
export const trainingRecords = resource({
  rail: 'training_records',
  path: 'records',
  name: 'record',
  label: { one: 'completion record', many: 'completion records' },
  idPrefix: 'trc',
  record: TrainingRecord,
  get: false,
  filters: {
    userId: UserId.optional().meta({ description: 'Only completions of this person.' }),
    moduleId: ModuleId.optional().meta({ description: 'Only completions of this module.' }),
  },
  setup: [
    { method: 'POST', path: '/v1/stakeholders/roles', body: { name: 'Role {{unique}}' }, as: 'role' },
    {
      method: 'POST',
      path: '/v1/stakeholders/users',
      body: { name: 'Ines Duarte', email: 'ines.{{unique}}@example.com', roleIds: ['{{role.id}}'] },
      as: 'user',
    },
    {
      method: 'POST',
      path: '/v1/training-records/modules',
      body: { title: 'AI literacy basics', requiredForRoleIds: ['{{role.id}}'], validityDays: 365 },
      as: 'module',
    },
    { method: 'POST', path: '/v1/training-records/records', body: { moduleId: '{{module.id}}', userId: '{{user.id}}', score: 92 } },
  ],
});

export const TrainingCertificate = z
  .object({
    object: z.literal('svc.training_records.certificate').meta({ description: objectDescription }),
    id: CertificateId,
    recordId: z.string().meta({ description: 'Id of the completion record (`trc_`).' }),
    moduleId: z.string().meta({ description: 'Id of the module.' }),
    moduleTitle: z.string().meta({ description: 'Title of the module.' }),
    userId: z.string().meta({ description: 'Id of the person.' }),
    userName: z.string().meta({ description: 'Name of the person.' }),
    completedAt: Timestamp.meta({ description: 'When the module was completed.' }),
    score: z.int().min(0).max(100).nullable().meta({ description: 'Score in percent; null when not scored.' }),
    expiresAt: Timestamp.nullable().meta({ description: 'When the completion stops counting; null when never.' }),
    verificationCode: z.string().meta({
      description:
        'Lowercase hex SHA-256 of the canonical certificate (ids, module title, person name, dates, score, tenant); give it to the verify route to check the certificate.',
    }),
    keyId: z
      .string()
      .meta({ description: 'Id of the audit signing key (`sk_`) that signed the code; its public half is at `/v1/audit-trail/keys`.' }),
    signature: z.string().meta({ description: 'Ed25519 signature of `verificationCode` by `keyId`, base64url.' }),
    verifyPath: z.string().meta({ description: 'Path of the public verify route for this code.' }),
    issuedAt: Timestamp.meta({ description: 'When the certificate was issued (the record was created).' }),
  })
  .meta({
    id: 'TrainingCertificate',
    examples: [
      {
        object: 'svc.training_records.certificate',
        id: 'tcf_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        recordId: 'trc_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        moduleId: 'tmd_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        moduleTitle: 'AI literacy basics',
        userId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        userName: 'Ines Duarte',
        completedAt: '2026-11-20T14:00:00.000Z',
        score: 92,
        expiresAt: '2027-11-20T14:00:00.000Z',
        verificationCode: '5c1f3c6e0d4a2a1f7f5b1a0e2f9c8d7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d',
        keyId: 'sk_0123456789abcdef01234567',
        signature: 'q3v0mN1c2d3e4f5g6h7i8j9k0l1m2n3o4p5q6r7s8t9u0v1w2x3y4z5A6B7C8D9E0F1G2H3I4J5K6L7M8N9O0P1Q',
        verifyPath: '/v1/training-records/certificates/verify?code=5c1f3c6e0d4a2a1f7f5b1a0e2f9c8d7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d',
        issuedAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

export const TrainingCertificateVerification = z
  .object({
    object: z.literal('svc.training_records.certificate_verification').meta({ description: objectDescription }),
    valid: z.boolean().meta({ description: 'True when a certificate has this code, its record is unchanged and the signature verifies.' }),
    reason: z.enum(['intact', 'unknown_code', 'record_altered', 'bad_signature']).meta({
      description:
        '`intact`; `unknown_code` (no certificate has this code: mistyped or tampered); `record_altered` (the stored record no longer hashes to the code); `bad_signature` (the signature does not verify with the published key).',
    }),
    certificate: z
      .object({
        id: z.string().meta({ description: 'Id of the certificate.' }),
        moduleTitle: z.string().meta({ description: 'Title of the module.' }),
        userName: z.string().meta({ description: 'Name of the person.' }),
        completedAt: Timestamp.meta({ description: 'When the module was completed.' }),
        expiresAt: Timestamp.nullable().meta({ description: 'When the completion stops counting; null when never.' }),
        expired: z.boolean().meta({ description: 'True when `expiresAt` is past.' }),
        keyId: z.string().meta({ description: 'Signing key of the certificate.' }),
      })
      .nullable()
      .meta({ description: 'What the certificate states; null when the code is unknown.' }),
    checkedAt: Timestamp.meta({ description: 'When the check ran.' }),
  })
  .meta({
    id: 'TrainingCertificateVerification',
    examples: [
      {
        object: 'svc.training_records.certificate_verification',
        valid: true,
        reason: 'intact',
        certificate: {
          id: 'tcf_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
          moduleTitle: 'AI literacy basics',
          userName: 'Ines Duarte',
          completedAt: '2026-11-20T14:00:00.000Z',
          expiresAt: '2027-11-20T14:00:00.000Z',
          expired: false,
          keyId: 'sk_0123456789abcdef01234567',
        },
        checkedAt: '2026-11-22T09:30:00.000Z',
      },
    ],
  });

// ---------------------------------------------------------------- coverage

const Overdue = z.object({
  userId: z.string().meta({ description: 'Id of the person.' }),
  name: z.string().meta({ description: 'Name of the person.' }),
  moduleId: z.string().meta({ description: 'Id of the required module.' }),
  moduleTitle: z.string().meta({ description: 'Title of the module.' }),
  roleIds: z.array(z.string()).meta({ description: "The person's roles that require the module." }),
  reason: z
    .enum(['never_completed', 'expired'])
    .meta({ description: '`never_completed`, or `expired` (the newest completion has run out).' }),
  expiredAt: Timestamp.nullable().meta({ description: 'When the newest completion expired; null when never completed.' }),
});

export const TrainingCoverage = z
  .object({
    object: z.literal('svc.training_records.coverage').meta({ description: objectDescription }),
    at: Timestamp.meta({ description: 'Time the coverage is computed for (completions valid at that time count).' }),
    framework: z.string().nullable().meta({ description: 'Framework the modules were restricted to; null for every module.' }),
    roles: z
      .array(
        z.object({
          roleId: z.string().meta({ description: 'Id of the role.' }),
          name: z.string().meta({ description: 'Name of the role.' }),
          requiredModuleIds: z.array(z.string()).meta({ description: 'Modules required of the role.' }),
          people: z.int().min(0).meta({ description: 'Active people holding the role.' }),
          trained: z
            .int()
            .min(0)
            .meta({ description: 'Of those, the people with an unexpired completion of every module required of the role.' }),
          share: z.number().min(0).max(1).meta({ description: '`trained / people`, 0 to 1 (0 when nobody holds the role).' }),
        }),
      )
      .meta({ description: 'One entry per role some module is required of, by role name.' }),
    people: z.int().min(0).meta({ description: 'Active people who must complete at least one module.' }),
    trained: z.int().min(0).meta({ description: 'Of those, the people with every required module valid.' }),
    share: z.number().min(0).max(1).meta({ description: '`trained / people`, 0 to 1.' }),
    overdue: z
      .array(Overdue)
      .meta({ description: 'Each (person, required module) pair without a valid completion, by name then module title.' }),
  })
  .meta({
    id: 'TrainingCoverage',
    examples: [
      {
        object: 'svc.training_records.coverage',
        at: '2026-11-22T09:30:00.000Z',
        framework: 'eu-ai-act',
        roles: [
          {
            roleId: 'rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
            name: 'ML engineer',
            requiredModuleIds: ['tmd_01JD3Z8W2M6Q4X9V7K5T1B0N3R'],
            people: 2,
            trained: 1,
            share: 0.5,
          },
        ],
        people: 2,
        trained: 1,
        share: 0.5,
        overdue: [
          {
            userId: 'usr_01JD3Z9A4D2H8K6M0P3R5T7V9X',
            name: 'Tomas Berg',
            moduleId: 'tmd_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
            moduleTitle: 'AI literacy basics',
            roleIds: ['rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R'],
            reason: 'never_completed',
            expiredAt: null,
          },
        ],
      },
    ],
  });

// ---------------------------------------------------------------- router

const area = 'training_records';
const read = meta({ auth: 'tenant', rail: 'training_records', permission: `${area}:read`, mutating: false });

export const trainingRecordsRouter = railRouter('training_records', {
  modules: trainingModules.routes,
  records: {
    // The list is the kit's; the create stays hand-written (see trainingRecords).
    list: trainingRecords.routes.list,
    create: {
      method: 'POST',
      path: '/records',
      body: CreateTrainingRecordBody,
      responses: { 201: TrainingRecord },
      summary: 'Record a completion',
      description:
        "Records that a person completed a module (now when `completedAt` is absent; a future time is 422) and issues its certificate, signed with the audit signing key. The module and the person must be the tenant's (422 naming the field otherwise). `expiresAt` follows from the module's `validityDays`. Returns 201, id `trc_<ULID>`. Needs `training_records:write`; audited as `training.completed` and `training.certificate_issued`, and emitted as the webhook events of those names. Send an `Idempotency-Key` so that a retry does not record the completion twice.",
      metadata: meta({
        auth: 'tenant',
        rail: 'training_records',
        permission: `${area}:write`,
        mutating: true,
        audit: 'training.completed',
      }),
    },
  },
  coverage: {
    method: 'GET',
    path: '/coverage',
    query: z.object({
      roleId: RoleId.optional().meta({ description: 'Only this role (the totals then count its holders only).' }),
      framework: FrameworkId.optional().meta({
        description: 'Only modules citing this framework in `frameworkRefs` (`eu-ai-act` for Art. 4 AI literacy).',
      }),
      at: Timestamp.optional().meta({ description: 'Compute as of this time (ISO 8601 UTC); now when absent.' }),
    }),
    responses: { 200: TrainingCoverage },
    summary: 'Training coverage per role, and who is overdue',
    description:
      'For each role some module is required of: the share of its active holders with an unexpired completion of every required module, and the overdue list (required module never completed, or its newest completion expired). Inactive people are left out. Computed at request time from the modules, people and completion records. Needs `training_records:read`.',
    metadata: read,
  },
  certificates: {
    list: {
      method: 'GET',
      path: '/certificates',
      query: PaginationQuery.extend({
        userId: UserId.optional().meta({ description: 'Only certificates of this person.' }),
        moduleId: ModuleId.optional().meta({ description: 'Only certificates of this module.' }),
        recordId: RecordId.optional().meta({ description: 'Only the certificate of this completion record.' }),
      }),
      responses: { 200: listOf(TrainingCertificate) },
      summary: 'List certificates',
      description:
        "Returns the certificates of the tenant's completions (one per completion), newest first, as `{ data, cursor }` (`limit` 1 to 200, default 50), each with its verification code and signature. Needs `training_records:read`.",
      metadata: read,
    },
    verify: {
      method: 'GET',
      path: '/certificates/verify',
      query: z.object({
        code: z
          .string()
          .regex(/^[0-9a-fA-F]{64}$/)
          .meta({
            description: 'Verification code of the certificate: 64 hex digits.',
            examples: ['5c1f3c6e0d4a2a1f7f5b1a0e2f9c8d7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d'],
          }),
      }),
      responses: { 200: TrainingCertificateVerification },
      summary: 'Verify a certificate (no token)',
      description:
        'For anyone holding a certificate, without an API key: finds the certificate by its code, recomputes the hash of the stored completion and checks the Ed25519 signature with the published key. `valid: false` with the reason when the code is unknown (mistyped or tampered), the record was altered or the signature fails.',
      metadata: meta({ auth: 'public', mutating: false }),
    },
  },
});

/**
 * Event types the training_records rail adds to the registry. It also emits the types the
 * specification names, registered with the planned ones: `training.completed` (data: the completion
 * record, with `principal` the person's id) and `training.certificate_issued` (data: the certificate,
 * with `principal` and `certificateId`).
 */
export const trainingRecordsEvents = [...trainingModules.events];
