import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { EXAMPLE_OTHER_USER, EXAMPLE_USER, prefixedId, Timestamp, UserId } from '../../shared/common.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, objectField } from '../../shared/records.ts';
import { FrameworkId, MODULE_ID, ModuleId, RECORD_ID, RecordId, ROLE_ID, RoleId, VERIFICATION_CODE } from './fields.ts';

/** The training records rail's records, request bodies and their examples (index.ts describes the rail). */

claimIdPrefix('tcf', 'svc.training_records.certificate');

/** The rail's records' `object` field: its description names the module as the example. */
const objectOf = <T extends string>(name: T) => objectField(name, 'svc.training_records.module');

const CERTIFICATE_ID = exampleId('tcf');

const CertificateId = prefixedId('tcf', CERTIFICATE_ID);

/** What the fields a certificate repeats from its module, person and completion mean. */
const MODULE_TITLE = 'Title of the module.';
const PERSON_ID = 'Id of the person.';
const PERSON_NAME = 'Name of the person.';
const COMPLETED = 'When the module was completed.';
const EXPIRES = 'When the completion stops counting; null when never.';

/** The examples' module provision, and Ines Duarte's completion of it (valid a year) and its certificate. */
const FRAMEWORK_REFS_EXAMPLE = [{ framework: 'eu-ai-act', reference: 'Art. 4' }];
const COMPLETED_AT = '2026-11-20T14:00:00.000Z';
const EXPIRES_AT = '2027-11-20T14:00:00.000Z';
const KEY_ID = 'sk_0123456789abcdef01234567';

const FrameworkRef = z.strictObject({
  framework: FrameworkId,
  reference: z.string().min(1).max(100).meta({ description: 'The provision the module answers (`Art. 4`).' }),
});

// ---------------------------------------------------------------- modules

/** The example module as requested (optional); the record makes it required of the example role. */
const MODULE_REQUEST_EXAMPLE = {
  title: 'AI literacy basics',
  description: 'What AI systems are, their risks and how to use them responsibly.',
  requiredForRoleIds: [],
  validityDays: 365,
  frameworkRefs: FRAMEWORK_REFS_EXAMPLE,
};

export const TrainingModule = z
  .object({
    object: objectOf('svc.training_records.module'),
    id: ModuleId,
    title: z.string().meta({ description: MODULE_TITLE }),
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
    ...created(),
  })
  .meta({
    id: 'TrainingModule',
    examples: [
      {
        object: 'svc.training_records.module',
        id: MODULE_ID,
        ...MODULE_REQUEST_EXAMPLE,
        requiredForRoleIds: [ROLE_ID],
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
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
      MODULE_REQUEST_EXAMPLE,
      {
        title: 'AI literacy for ML engineers',
        requiredForRoleIds: [ROLE_ID],
        validityDays: 365,
        frameworkRefs: FRAMEWORK_REFS_EXAMPLE,
      },
    ],
  });

// ---------------------------------------------------------------- records and certificates

/** A completion as recorded; the record adds its id, expiry, certificate and stamps. */
const COMPLETION_REQUEST_EXAMPLE = { moduleId: MODULE_ID, userId: EXAMPLE_USER, completedAt: COMPLETED_AT, score: 92 };

export const TrainingRecord = z
  .object({
    object: objectOf('svc.training_records.record'),
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
    ...created(),
  })
  .meta({
    id: 'TrainingRecord',
    examples: [
      {
        object: 'svc.training_records.record',
        id: RECORD_ID,
        ...COMPLETION_REQUEST_EXAMPLE,
        expiresAt: EXPIRES_AT,
        expired: false,
        certificateId: CERTIFICATE_ID,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
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
    examples: [COMPLETION_REQUEST_EXAMPLE],
  });

export const TrainingCertificate = z
  .object({
    object: objectOf('svc.training_records.certificate'),
    id: CertificateId,
    recordId: z.string().meta({ description: 'Id of the completion record (`trc_`).' }),
    moduleId: z.string().meta({ description: 'Id of the module.' }),
    moduleTitle: z.string().meta({ description: MODULE_TITLE }),
    userId: z.string().meta({ description: PERSON_ID }),
    userName: z.string().meta({ description: PERSON_NAME }),
    completedAt: Timestamp.meta({ description: COMPLETED }),
    score: z.int().min(0).max(100).nullable().meta({ description: 'Score in percent; null when not scored.' }),
    expiresAt: Timestamp.nullable().meta({ description: EXPIRES }),
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
        id: CERTIFICATE_ID,
        recordId: RECORD_ID,
        moduleId: MODULE_ID,
        moduleTitle: 'AI literacy basics',
        userId: EXAMPLE_USER,
        userName: 'Ines Duarte',
        completedAt: COMPLETED_AT,
        score: 92,
        expiresAt: EXPIRES_AT,
        verificationCode: VERIFICATION_CODE,
        keyId: KEY_ID,
        signature: 'q3v0mN1c2d3e4f5g6h7i8j9k0l1m2n3o4p5q6r7s8t9u0v1w2x3y4z5A6B7C8D9E0F1G2H3I4J5K6L7M8N9O0P1Q',
        verifyPath: `/v1/training-records/certificates/verify?code=${VERIFICATION_CODE}`,
        issuedAt: EXAMPLE_AT,
      },
    ],
  });

export const TrainingCertificateVerification = z
  .object({
    object: objectOf('svc.training_records.certificate_verification'),
    valid: z.boolean().meta({ description: 'True when a certificate has this code, its record is unchanged and the signature verifies.' }),
    reason: z.enum(['intact', 'unknown_code', 'record_altered', 'bad_signature']).meta({
      description:
        '`intact`; `unknown_code` (no certificate has this code: mistyped or tampered); `record_altered` (the stored record no longer hashes to the code); `bad_signature` (the signature does not verify with the published key).',
    }),
    certificate: z
      .object({
        id: z.string().meta({ description: 'Id of the certificate.' }),
        moduleTitle: z.string().meta({ description: MODULE_TITLE }),
        userName: z.string().meta({ description: PERSON_NAME }),
        completedAt: Timestamp.meta({ description: COMPLETED }),
        expiresAt: Timestamp.nullable().meta({ description: EXPIRES }),
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
          id: CERTIFICATE_ID,
          moduleTitle: 'AI literacy basics',
          userName: 'Ines Duarte',
          completedAt: COMPLETED_AT,
          expiresAt: EXPIRES_AT,
          expired: false,
          keyId: KEY_ID,
        },
        checkedAt: EXAMPLE_AT,
      },
    ],
  });

// ---------------------------------------------------------------- coverage

const Overdue = z.object({
  userId: z.string().meta({ description: PERSON_ID }),
  name: z.string().meta({ description: PERSON_NAME }),
  moduleId: z.string().meta({ description: 'Id of the required module.' }),
  moduleTitle: z.string().meta({ description: MODULE_TITLE }),
  roleIds: z.array(z.string()).meta({ description: "The person's roles that require the module." }),
  reason: z
    .enum(['never_completed', 'expired'])
    .meta({ description: '`never_completed`, or `expired` (the newest completion has run out).' }),
  expiredAt: Timestamp.nullable().meta({ description: 'When the newest completion expired; null when never completed.' }),
});

export const TrainingCoverage = z
  .object({
    object: objectOf('svc.training_records.coverage'),
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
        at: EXAMPLE_AT,
        framework: 'eu-ai-act',
        roles: [
          {
            roleId: ROLE_ID,
            name: 'ML engineer',
            requiredModuleIds: [MODULE_ID],
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
            userId: EXAMPLE_OTHER_USER,
            name: 'Tomas Berg',
            moduleId: MODULE_ID,
            moduleTitle: 'AI literacy basics',
            roleIds: [ROLE_ID],
            reason: 'never_completed',
            expiredAt: null,
          },
        ],
      },
    ],
  });
