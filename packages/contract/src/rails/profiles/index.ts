import { z } from 'zod';
import { INDUSTRIES } from '../../platform/catalogue.ts';
import { get, policyOf } from '../../platform/declare.ts';
import { railRouter } from '../../platform/resource.ts';
import type { eventType } from '../../platform/webhook-events.ts';
import { ASSESSMENT_TYPE_IDS } from '../../shared/assessment-types.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';

/** The industries of the catalogue: the profiles rail's sub-resources. */
export const INDUSTRY_IDS = INDUSTRIES;

export const IndustryId = z
  .enum(INDUSTRY_IDS)
  .meta({ description: 'Industry of the profile, one of the catalogue’s profiles (`banking`, `healthcare`, ...).', examples: ['banking'] });

/** How early a firm of the industry takes a framework or control on: 1 first, 3 last. */
const Priority = z.int().min(1).max(3);

/** The fields a profile and its summary open with: what the record is and which industry it describes. */
const profileHead = <const T extends string>(object: T) => ({
  object: z.literal(object).meta({ description: 'Type of the object, constant for the schema.' }),
  id: IndustryId,
  title: z.string().meta({ description: 'Name of the industry.' }),
  description: z.string().meta({ description: 'Which firms the profile describes.' }),
});

export const ProfileFramework = z
  .object({
    id: z.string().meta({ description: 'Id of the framework dictionary (`dora`).' }),
    shortTitle: z.string().meta({ description: 'Short name of the dictionary (`DORA`).' }),
    dictionaryVersion: z.string().meta({ description: 'Latest `<dictionary>@<version>` the service ships.' }),
    priority: Priority.meta({ description: 'How early a firm of the industry takes it on: 1 first, 3 last.' }),
    why: z.string().meta({ description: 'Why a firm of this industry faces the framework.' }),
  })
  .meta({ id: 'ProfileFramework' });

export const ProfileBaselineControl = z
  .object({
    controlId: z.string().meta({ description: 'Id of the control in its dictionary (`DORA-RMF-01`).' }),
    framework: z.string().meta({ description: 'Id of the dictionary the control belongs to.' }),
    title: z.string().meta({ description: 'Title of the control in the latest version of its dictionary.' }),
    category: z.string().meta({ description: 'Category of the control in its dictionary.' }),
    priority: Priority.meta({ description: 'Order of work: 1 first, 3 last.' }),
    why: z.string().meta({ description: 'Why a firm of this industry starts with this control.' }),
  })
  .meta({ id: 'ProfileBaselineControl' });

export const ProfileAssessment = z
  .object({
    type: z.enum(ASSESSMENT_TYPE_IDS).meta({ description: 'Assessment type to run (`dpia`, `fria`, ...).' }),
    framework: z.string().meta({ description: 'Framework of the profile that calls for it.' }),
    why: z.string().meta({ description: 'What in the framework calls for the assessment.' }),
  })
  .meta({ id: 'ProfileAssessment' });

export const IndustryProfile = z
  .object({
    ...profileHead('svc.profiles.profile'),
    frameworks: z.array(z.string()).meta({
      description:
        'Ids of the framework dictionaries a firm of this industry faces, by priority (`dora`, `gdpr`); `frameworkDetails` says why each applies.',
    }),
    frameworkDetails: z.array(ProfileFramework).meta({
      description:
        'The detail of `frameworks`, in the same order: each framework with its short title, version, priority and why it applies.',
    }),
    controlBaseline: z
      .array(ProfileBaselineControl)
      .meta({ description: 'The controls such a firm starts with, by priority; each belongs to one of the frameworks.' }),
    assessments: z.array(ProfileAssessment).meta({
      description: 'The assessments the frameworks call for (a DPIA for GDPR, risk classification and FRIA for the AI Act, ...).',
    }),
    contentVersion: z.string().meta({ description: 'Version of the profile catalogue the answer comes from.' }),
  })
  .meta({
    id: 'IndustryProfile',
    examples: [
      {
        object: 'svc.profiles.profile',
        id: 'banking',
        title: 'Banking',
        description: 'Credit institutions taking deposits and granting credit in the EU.',
        frameworks: ['dora'],
        frameworkDetails: [
          {
            id: 'dora',
            shortTitle: 'DORA',
            dictionaryVersion: 'dora@1.0.0',
            priority: 1,
            why: 'Credit institutions are financial entities under DORA Art. 2(1)(a).',
          },
        ],
        controlBaseline: [
          {
            controlId: 'DORA-RMF-01',
            framework: 'dora',
            title: 'ICT risk management framework',
            category: 'ict risk management',
            priority: 1,
            why: 'The ICT risk management framework is the core duty of DORA Art. 6.',
          },
        ],
        assessments: [{ type: 'dpia', framework: 'gdpr', why: 'GDPR Art. 35 requires a DPIA before high-risk processing.' }],
        contentVersion: '1.0.0',
      },
    ],
  });

export const IndustryProfileSummary = z
  .object({
    ...profileHead('svc.profiles.profile_summary'),
    frameworks: z.array(z.string()).meta({ description: 'Ids of the frameworks the industry faces, by priority.' }),
    baselineControls: z.int().meta({ description: 'Number of controls in the profile’s control baseline.' }),
  })
  .meta({
    id: 'IndustryProfileSummary',
    examples: [
      {
        object: 'svc.profiles.profile_summary',
        id: 'healthcare',
        title: 'Healthcare',
        description: 'Hospitals, clinics, health-tech and medical-device firms.',
        frameworks: ['hipaa', 'gdpr', 'eu-ai-act'],
        baselineControls: 9,
      },
    ],
  });

const { read } = policyOf('profiles');

export const profilesRouter = railRouter('profiles', {
  list: get('', { query: PaginationQuery }, listOf(IndustryProfileSummary), read).doc(
    'List the industry profiles',
    'The industry profiles of the catalogue (banking, finance, healthcare, ...), each with the frameworks it faces and the size of its control baseline, in catalogue order; paginated by `limit` and `cursor`. Reference data, the same for every tenant.',
  ),
  get: get('/:industry', { pathParams: z.object({ industry: IndustryId }) }, IndustryProfile, read).doc(
    'Get the frameworks and control baseline of one industry',
    'Returns `{ frameworks, controlBaseline }` for the industry: `frameworks`, the ids of the framework dictionaries a firm of that industry really faces (by priority; `frameworkDetails` gives each with its short title, version, priority and why), and the controls (from those dictionaries) it starts with, by priority, with their titles from the shipped dictionaries; plus the assessments the frameworks call for. An industry outside the catalogue is a 422.',
  ),
});

/** Event types the profiles rail emits: none, it only reads. */
export const profilesEvents: ReturnType<typeof eventType>[] = [];
