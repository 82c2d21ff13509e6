import { z } from 'zod';
import { claimIdPrefix } from '../../platform/resource.ts';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { CREATED_AT_DESCRIPTION, CREATED_BY_KEY_DESCRIPTION, created, EXAMPLE_KEY, exampleId, objectField } from '../../shared/records.ts';
import { DocumentId, EXAMPLE_SYSTEM, NOTICE_STATUSES, SystemId } from './fields.ts';

/** The public disclosure rail's records, request bodies and their examples (index.ts describes the rail). */

/** The record the `object` field descriptions of this rail name as their example. */
const OBJECT_EXAMPLE = 'svc.public_disclosure.transparency_notice';

claimIdPrefix('pdd', 'svc.public_disclosure.document');
const Text = (max: number, description: string) => z.string().trim().min(1).max(max).meta({ description });
const Modality = z.enum(['text', 'image', 'audio', 'video']);

// ---------------------------------------------------------------- system profiles

/** The example profile as declared: the facts a request gives, which the record repeats. */
const PROFILE_REQUEST_EXAMPLE = {
  name: 'Credit assistant',
  purpose: 'Answers customer questions about loan applications.',
  provider: 'Acme Bank AG',
  role: 'provider_and_deployer',
  deployerContext: 'Customer portal, retail customers in Germany.',
  model: 'acme-llm 2.1',
  interactsWithPeople: true,
  generatesSyntheticContent: true,
  syntheticModalities: ['text'],
};
/** When the example profile was declared. */
const EXAMPLE_PROFILE_AT = '2026-11-20T09:00:00.000Z';

export const SystemProfile = z
  .object({
    object: objectField('svc.public_disclosure.system_profile', OBJECT_EXAMPLE),
    systemId: SystemId,
    name: z.string().meta({ description: 'Name of the AI system.' }),
    purpose: z.string().meta({ description: 'Intended purpose.' }),
    provider: z.string().meta({ description: 'Provider of the system (Art. 3(3)).' }),
    role: z
      .enum(['provider', 'deployer', 'provider_and_deployer'])
      .meta({ description: 'The tenant’s role for this system: Art. 50(1)-(2) bind providers, 50(3)-(4) deployers.' }),
    deployerContext: z.string().nullable().meta({ description: 'Where and for whom the system is used.' }),
    model: z.string().nullable().meta({ description: 'Underlying model (name and version).' }),
    interactsWithPeople: z.boolean().meta({ description: 'Intended to interact directly with natural persons (Art. 50(1)).' }),
    generatesSyntheticContent: z.boolean().meta({ description: 'Generates synthetic audio, image, video or text (Art. 50(2)).' }),
    syntheticModalities: z.array(Modality).meta({ description: 'Modalities of the synthetic content it generates.' }),
    emotionRecognition: z.boolean().meta({ description: 'Is an emotion recognition system (Art. 50(3)).' }),
    biometricCategorisation: z.boolean().meta({ description: 'Is a biometric categorisation system (Art. 50(3)).' }),
    deepFake: z
      .boolean()
      .meta({ description: 'Generates or manipulates image, audio or video content constituting a deep fake (Art. 50(4)).' }),
    publicInterestText: z
      .boolean()
      .meta({ description: 'Generates or manipulates text published to inform the public on matters of public interest (Art. 50(4)).' }),
    editorialResponsibility: z.boolean().meta({
      description: 'Such text undergoes human review or editorial control with editorial responsibility (the Art. 50(4) exception).',
    }),
    generalPurposeModel: z
      .boolean()
      .meta({ description: 'The system is or embeds a general-purpose AI model the tenant provides (Art. 53).' }),
    riskIds: z.array(z.string()).meta({ description: 'Risks of the risk register that concern this system.' }),
    gpaiSummaryIds: z.array(z.string()).meta({ description: 'GPAI training-data summaries of the model (gpai_summary rail).' }),
    redTeamTargetIds: z.array(z.string()).meta({ description: 'Red-team targets that test this system (red_team rail).' }),
    createdAt: Timestamp.meta({ description: CREATED_AT_DESCRIPTION }),
    updatedAt: Timestamp.meta({ description: 'When the profile last changed.' }),
  })
  .meta({
    id: 'PublicDisclosureSystemProfile',
    examples: [
      {
        object: 'svc.public_disclosure.system_profile',
        systemId: EXAMPLE_SYSTEM,
        ...PROFILE_REQUEST_EXAMPLE,
        emotionRecognition: false,
        biometricCategorisation: false,
        deepFake: false,
        publicInterestText: false,
        editorialResponsibility: false,
        generalPurposeModel: false,
        riskIds: [],
        gpaiSummaryIds: [],
        redTeamTargetIds: [],
        createdAt: EXAMPLE_PROFILE_AT,
        updatedAt: EXAMPLE_PROFILE_AT,
      },
    ],
  });

const IdList = (prefix: string, description: string) =>
  z
    .array(z.string().regex(new RegExp(`^${prefix}_[0-9A-HJKMNP-TV-Z]{26}$`)))
    .max(100)
    .optional()
    .meta({ description });

export const PutSystemProfileBody = z
  .strictObject({
    name: Text(200, 'Name of the AI system.'),
    purpose: Text(4000, 'Intended purpose.'),
    provider: Text(200, 'Provider of the system.'),
    role: SystemProfile.shape.role,
    deployerContext: Text(4000, 'Where and for whom the system is used.').optional(),
    model: Text(200, 'Underlying model (name and version).').optional(),
    interactsWithPeople: z.boolean().meta({ description: 'Intended to interact directly with natural persons.' }),
    generatesSyntheticContent: z.boolean().meta({ description: 'Generates synthetic audio, image, video or text.' }),
    syntheticModalities: z
      .array(Modality)
      .max(4)
      .optional()
      .meta({ description: 'Modalities of the synthetic content; none when absent.' }),
    emotionRecognition: z.boolean().optional().meta({ description: 'Is an emotion recognition system; false when absent.' }),
    biometricCategorisation: z.boolean().optional().meta({ description: 'Is a biometric categorisation system; false when absent.' }),
    deepFake: z.boolean().optional().meta({ description: 'Generates or manipulates deep fakes; false when absent.' }),
    publicInterestText: z
      .boolean()
      .optional()
      .meta({ description: 'Generates text published on matters of public interest; false when absent.' }),
    editorialResponsibility: z
      .boolean()
      .optional()
      .meta({ description: 'Such text is under editorial responsibility; false when absent.' }),
    generalPurposeModel: z.boolean().optional().meta({ description: 'Is or embeds a GPAI model the tenant provides; false when absent.' }),
    riskIds: IdList('[a-z]{2,5}', 'Register risks of this system (ids of this tenant’s risk register); none when absent.'),
    gpaiSummaryIds: IdList('[a-z]{2,5}', 'GPAI summaries of the model; none when absent.'),
    redTeamTargetIds: IdList('[a-z]{2,5}', 'Red-team targets testing the system; none when absent.'),
  })
  .meta({
    id: 'PutPublicDisclosureSystemProfileRequest',
    examples: [PROFILE_REQUEST_EXAMPLE],
  });

// ---------------------------------------------------------------- shared parts of generated documents

export const DisclosureSource = z
  .object({
    type: z
      .enum(['system_profile', 'assessment', 'evidence', 'risk', 'gpai_summary', 'red_team_run'])
      .meta({ description: 'Kind of record used.' }),
    id: z.string().meta({ description: 'Id of the record (the systemId for the profile).' }),
    label: z.string().meta({ description: 'What the record is, in words.' }),
    stamp: Timestamp.meta({ description: 'The record’s last change (or creation) when it was used: a later change makes a new hash.' }),
  })
  .meta({ id: 'PublicDisclosureSource', description: 'A record a generated document was built from.' });

export const DisclosureSection = z
  .object({
    key: z.string().meta({ description: 'Stable key of the section (`53(1)(a).annex-xi-1(a)`, `intended-use`).' }),
    title: z.string().meta({ description: 'Heading of the section.' }),
    source: z.string().nullable().meta({ description: 'Provision the section answers (`EU AI Act Annex XI, Section 1(a)`), when one.' }),
    content: z
      .string()
      .nullable()
      .meta({ description: 'The section’s text, filled from the records; null when the records do not supply it.' }),
    sourceIds: z.array(z.string()).meta({ description: 'Ids of the records the content comes from.' }),
  })
  .meta({ id: 'PublicDisclosureSection', description: 'One section of a generated document.' });

/** When the example documents were generated. */
const EXAMPLE_GENERATED_AT = '2026-11-22T09:00:00.000Z';
/** The first version of the example system's documents: its hash, and nothing before it. */
const EXAMPLE_FIRST_VERSION = {
  systemId: EXAMPLE_SYSTEM,
  version: 1,
  sha256: 'a3f1c2d4e5b6a7980112233445566778899aabbccddeeff00112233445566778',
  previousSha256: null,
  changed: true,
};
/** The example documents' one source: the system's profile. */
const EXAMPLE_SOURCES = [{ type: 'system_profile', id: EXAMPLE_SYSTEM, label: PROFILE_REQUEST_EXAMPLE.name, stamp: EXAMPLE_PROFILE_AT }];

const versionFields = {
  systemId: SystemId,
  version: z.int().min(1).meta({ description: 'Version number of this kind of document for the system: 1, 2, ...' }),
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .meta({
      description: 'SHA-256 (hex) of the canonical content (sorted-key JSON of kind, system, sections, duties, missing and sources).',
    }),
  previousSha256: z
    .string()
    .nullable()
    .meta({ description: 'Hash of the previous version of this kind for the system; null for version 1.' }),
  changed: z.boolean().meta({ description: 'True when the hash differs from the previous version’s (always true for version 1).' }),
  sections: z.array(DisclosureSection).meta({ description: 'The document, section by section.' }),
  missing: z.array(z.string()).meta({ description: 'Keys of the sections (or inputs) the records do not supply yet.' }),
  sources: z.array(DisclosureSource).meta({ description: 'Every record the generation used, by type and id.' }),
  ...created(CREATED_BY_KEY_DESCRIPTION),
};

// ---------------------------------------------------------------- transparency notices

export const TransparencyNotice = z
  .object({
    object: objectField('svc.public_disclosure.transparency_notice', OBJECT_EXAMPLE),
    id: prefixedId('pdn', exampleId('pdn')),
    status: z
      .enum(NOTICE_STATUSES)
      .meta({ description: '`draft` -> `published` (publish) -> `withdrawn` (withdraw); the content never changes.' }),
    audience: z
      .enum(['public', 'affected_persons', 'deployers'])
      .meta({ description: 'Whom the notice addresses: the public, persons exposed to the system, or deployers.' }),
    text: z.string().meta({ description: 'The notice as text: the sections in order.' }),
    ...versionFields,
    publishedAt: Timestamp.nullable().meta({ description: 'When it was published; null until then.' }),
    updatedAt: Timestamp.meta({ description: 'When the status last changed.' }),
  })
  .meta({
    id: 'PublicDisclosureTransparencyNotice',
    examples: [
      {
        object: 'svc.public_disclosure.transparency_notice',
        id: exampleId('pdn'),
        status: 'draft',
        audience: 'public',
        text: 'Credit assistant (sys_credit_scoring_v2)\n\nAbout this AI system: ...',
        ...EXAMPLE_FIRST_VERSION,
        sections: [
          {
            key: 'system',
            title: 'About this AI system',
            source: null,
            content:
              'Credit assistant is an AI system provided by Acme Bank AG. Purpose: answers customer questions about loan applications.',
            sourceIds: [EXAMPLE_SYSTEM],
          },
        ],
        missing: ['assessments'],
        sources: EXAMPLE_SOURCES,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_GENERATED_AT,
        publishedAt: null,
        updatedAt: EXAMPLE_GENERATED_AT,
      },
    ],
  });

export const GenerateTransparencyNoticeBody = z
  .strictObject({
    systemId: SystemId,
    audience: TransparencyNotice.shape.audience.optional().meta({ description: 'Whom the notice addresses; `public` when absent.' }),
  })
  .meta({ id: 'GenerateTransparencyNoticeRequest', examples: [{ systemId: EXAMPLE_SYSTEM, audience: 'public' }] });

// ---------------------------------------------------------------- art-50, art-53-gpai, model-card

export const Art50Duty = z
  .object({
    paragraph: z.enum(['50(1)', '50(2)', '50(3)', '50(4)', '50(4) text', '50(5)']).meta({ description: 'Paragraph of Art. 50.' }),
    addressee: z.enum(['provider', 'deployer']).meta({ description: 'Who the duty binds.' }),
    applies: z
      .boolean()
      .nullable()
      .meta({ description: 'Whether it applies to this system; null while the system profile is not declared.' }),
    reason: z.string().meta({ description: 'Why it applies or not, from the profile.' }),
    requiredText: z
      .string()
      .nullable()
      .meta({ description: 'The disclosure the duty requires, worded for this system; null when it does not apply.' }),
    source: z.string().meta({ description: 'Legal source (`EU AI Act Art. 50(1)`).' }),
  })
  .meta({ id: 'PublicDisclosureArt50Duty', description: 'One transparency duty of Art. 50 and whether it applies.' });

export const DisclosureDocument = z
  .object({
    object: objectField('svc.public_disclosure.document', OBJECT_EXAMPLE),
    id: DocumentId,
    kind: z
      .enum(['art-50', 'art-53-gpai', 'model-card'])
      .meta({ description: 'Kind of document: Art. 50 disclosure, Art. 53 GPAI documentation, or model card.' }),
    duties: z.array(Art50Duty).meta({ description: 'Art. 50 duties with their applicability (art-50 documents; empty for other kinds).' }),
    ...versionFields,
  })
  .meta({
    id: 'PublicDisclosureDocument',
    examples: [
      {
        object: 'svc.public_disclosure.document',
        id: exampleId('pdd'),
        kind: 'art-50',
        duties: [
          {
            paragraph: '50(1)',
            addressee: 'provider',
            applies: true,
            reason: 'The tenant provides the system and it interacts directly with natural persons.',
            requiredText: 'You are interacting with an AI system (Credit assistant), not a human.',
            source: 'EU AI Act Art. 50(1)',
          },
        ],
        ...EXAMPLE_FIRST_VERSION,
        sections: [],
        missing: [],
        sources: EXAMPLE_SOURCES,
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_GENERATED_AT,
      },
    ],
  });

export const GenerateDisclosureDocumentBody = z
  .strictObject({ systemId: SystemId })
  .meta({ id: 'GeneratePublicDisclosureDocumentRequest', examples: [{ systemId: EXAMPLE_SYSTEM }] });
