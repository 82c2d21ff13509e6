import { z } from 'zod';
import { get, policyOf } from '../../platform/declare.ts';
import { meta } from '../../platform/meta.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { listOf, PaginationQuery, Timestamp, UserId } from '../../shared/common.ts';
import { FrameworkId, ModuleId, RecordId, RoleId, VERIFICATION_CODE } from './fields.ts';
import {
  CreateTrainingModuleBody,
  CreateTrainingRecordBody,
  TrainingCertificate,
  TrainingCertificateVerification,
  TrainingCoverage,
  TrainingModule,
  TrainingRecord,
} from './schemas.ts';

/** The training records rail's resources and hand-declared routes, its router and the event types it emits. */

// ---------------------------------------------------------------- modules

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

/**
 * The completion records, from the kit. The create issues the signed certificate with the record
 * and emits `training.completed` (the record with the person as `principal`, the store's event
 * data) and `training.certificate_issued`; both types are registered with the planned ones.
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
  ],
  create: {
    body: CreateTrainingRecordBody,
    action: 'training.completed',
    summary: 'Record a completion',
    description:
      "Records that a person completed a module (now when `completedAt` is absent; a future time is 422) and issues its certificate, signed with the audit signing key. The module and the person must be the tenant's (422 naming the field otherwise). `expiresAt` follows from the module's `validityDays`. Also audited and emitted as `training.certificate_issued`.",
    fixture: { moduleId: '{{module.id}}', userId: '{{user.id}}', score: 92 },
  },
});

// ---------------------------------------------------------------- router

const { read } = policyOf('training_records');

export const trainingRecordsRouter = railRouter('training_records', {
  modules: trainingModules.routes,
  records: {
    list: trainingRecords.routes.list,
    create: trainingRecords.routes.create,
  },
  coverage: get(
    '/coverage',
    {
      query: z.object({
        roleId: RoleId.optional().meta({ description: 'Only this role (the totals then count its holders only).' }),
        framework: FrameworkId.optional().meta({
          description: 'Only modules citing this framework in `frameworkRefs` (`eu-ai-act` for Art. 4 AI literacy).',
        }),
        at: Timestamp.optional().meta({ description: 'Compute as of this time (ISO 8601 UTC); now when absent.' }),
      }),
    },
    TrainingCoverage,
    read,
  ).doc(
    'Training coverage per role, and who is overdue',
    'For each role some module is required of: the share of its active holders with an unexpired completion of every required module, and the overdue list (required module never completed, or its newest completion expired). Inactive people are left out. Computed at request time from the modules, people and completion records. Needs `training_records:read`.',
  ),
  certificates: {
    list: get(
      '/certificates',
      {
        query: PaginationQuery.extend({
          userId: UserId.optional().meta({ description: 'Only certificates of this person.' }),
          moduleId: ModuleId.optional().meta({ description: 'Only certificates of this module.' }),
          recordId: RecordId.optional().meta({ description: 'Only the certificate of this completion record.' }),
        }),
      },
      listOf(TrainingCertificate),
      meta({ ...read, source: { object: 'svc.training_records.certificate' } }),
    ).doc(
      'List certificates',
      "Returns the certificates of the tenant's completions (one per completion), newest first, as `{ data, cursor }` (`limit` 1 to 200, default 50), each with its verification code and signature. Needs `training_records:read`.",
    ),
    verify: get(
      '/certificates/verify',
      {
        query: z.object({
          code: z
            .string()
            .regex(/^[0-9a-fA-F]{64}$/)
            .meta({
              description: 'Verification code of the certificate: 64 hex digits.',
              examples: [VERIFICATION_CODE],
            }),
        }),
      },
      TrainingCertificateVerification,
      meta({ auth: 'public', mutating: false }),
    ).doc(
      'Verify a certificate (no token)',
      'For anyone holding a certificate, without an API key: finds the certificate by its code, recomputes the hash of the stored completion and checks the Ed25519 signature with the published key. `valid: false` with the reason when the code is unknown (mistyped or tampered), the record was altered or the signature fails.',
    ),
  },
});

/**
 * Event types the training_records rail adds to the registry. It also emits the types the
 * specification names, registered with the planned ones: `training.completed` (data: the completion
 * record, with `principal` the person's id) and `training.certificate_issued` (data: the certificate,
 * with `principal` and `certificateId`).
 */
export const trainingRecordsEvents = [...trainingModules.events];
