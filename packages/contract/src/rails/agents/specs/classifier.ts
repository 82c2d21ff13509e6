import { z } from 'zod';
import { BOTH, Label } from './shared.ts';
import { type AgentSpec, agentSpec } from './spec.ts';

/**
 * The EU AI Act classifier: classifies an AI system described in plain language (or declared in
 * the tenant's system profiles) as a prohibited practice, a high-risk system, a general-purpose
 * AI model, a limited-risk system with transparency duties, or minimal risk, and cites the
 * provisions of Regulation (EU) 2024/1689 that put it there.
 */

const RiskLevel = z.enum(['prohibited', 'high', 'gpai', 'limited', 'minimal']).meta({
  description:
    'EU AI Act class: prohibited practice (Art. 5), high-risk (Art. 6), general-purpose AI model (Art. 3(63), 51-55), limited risk with transparency duties (Art. 50), or minimal risk.',
});
const Area = z.string().meta({
  description:
    'The provision the class mainly rests on: `art5-a` to `art5-h`, `annex-i`, `annex-iii-1` to `annex-iii-8`, `gpai`, `art50` or `minimal`.',
});
const Hit = z
  .object({
    concept: z.string().meta({ description: 'The concept of the rule set that matched (for example `emotion` or `workplace`).' }),
    phrase: z.string().meta({ description: 'The words of the normalised description that matched it.' }),
    source: z.string().meta({
      description: 'Where they were found: `name`, `purpose`, `persons` (affected persons or intended users) or `systemProfile`.',
    }),
  })
  .meta({ description: 'A phrase of the description that triggered a concept of a rule.' });

const exampleInput = {
  purpose: 'Screens CVs and ranks job applicants for our recruiters.',
  affectedPersons: ['job applicants'],
};

// A real answer to the first example, with the obligations cut to four of the list.
const exampleOutput = {
  riskLevel: 'high',
  area: 'annex-iii-4',
  rationale:
    'High-risk AI system: Art. 6(2) and Annex III point 4(a) (Recruitment or selection of natural persons), matched "cvs". A fundamental rights impact assessment (Art. 27(1)) is due only if the deployer is a body governed by public law or a private entity providing public services; the description does not say so.',
  applicableClauses: [
    'art-6',
    'art-6-2',
    'art-8',
    'art-9',
    'art-9-2',
    'art-9-5',
    'art-9-6',
    'art-9-8',
    'art-9-9',
    'art-10',
    'art-10-2',
    'art-10-3',
    'art-10-4',
    'art-4a',
    'art-11',
    'art-12',
    'art-12-2',
    'art-13',
    'art-13-2',
    'art-13-3',
    'art-14',
    'art-14-3',
    'art-14-4',
    'art-15',
    'art-15-3',
    'art-15-4',
    'art-15-5',
    'art-16',
    'art-17',
    'art-18',
    'art-19',
    'art-20',
    'art-21',
    'art-26',
    'art-26-1',
    'art-26-2',
    'art-26-4',
    'art-26-5',
    'art-26-6',
    'art-26-7',
    'art-26-9',
    'art-26-11',
    'art-26-12',
    'art-43',
    'art-43-2',
    'art-43-4',
    'art-47',
    'art-48',
    'art-49',
    'art-49-1',
    'art-72',
    'art-72-2',
    'art-72-3',
    'art-73',
    'art-73-2',
    'art-73-3',
    'art-73-4',
    'art-73-5',
    'art-73-6',
    'art-86',
    'annex-iii',
    'annex-iii-4',
  ],
  matched: [
    {
      rule: 'annex-iii-4a-recruitment',
      level: 'high',
      area: 'annex-iii-4',
      provision: 'Art. 6(2) and Annex III point 4(a)',
      title: 'Recruitment or selection of natural persons',
      phrases: [{ concept: 'recruitment', phrase: 'cvs', source: 'purpose' }],
    },
  ],
  exceptions: [],
  derogation: null,
  transparencyDuties: [],
  systemicRisk: false,
  trainingComputeFlops: null,
  obligations: [
    { id: 'AIA-OBL-018', title: 'Establish a risk management system', clauseRef: 'art-9', actor: 'provider', applicableFrom: '2027-12-02' },
    { id: 'AIA-OBL-067', title: 'Use according to instructions', clauseRef: 'art-26-1', actor: 'deployer', applicableFrom: '2027-12-02' },
    {
      id: 'AIA-OBL-074',
      title: 'Inform workers before workplace use',
      clauseRef: 'art-26-7',
      actor: 'deployer',
      applicableFrom: '2027-12-02',
    },
    {
      id: 'AIA-OBL-088',
      title: 'Register high-risk systems in EU database',
      clauseRef: 'art-49-1',
      actor: 'provider',
      applicableFrom: '2027-12-02',
    },
  ],
  appliesFrom: {
    date: '2027-12-02',
    source: 'Art. 113 as amended by Regulation (EU) 2026/1744 (in force 2026-07-27)',
    asEnacted: { date: '2026-08-02', source: 'Art. 113' },
    inEffect: false,
  },
};

const classifier = agentSpec({
  slug: 'classifier',
  title: 'EU AI Act classifier',
  purpose:
    'Classifies an AI system by the EU AI Act: the Art. 5 prohibited practices and their exceptions, high risk under Art. 6(1) and Annex I or Art. 6(2) and the eight Annex III areas with the Art. 6(3) derogations, Art. 50 transparency duties and general-purpose AI model scoping with the Art. 51 systemic-risk presumption; it cites the clauses and lists the obligations that follow.',
  group: 'deterministic',
  groupReason: 'The class is the consequence of the Act’s rules applied to the system’s description, not a judgement that ranks options.',
  catalogues: BOTH,
  input: z
    .strictObject({
      aiSystem: z
        .strictObject({
          name: Label(200, 'Name of the AI system.'),
          purpose: Label(4000, 'What the system does and for whom, in plain language; this is the text the classifier reads.'),
          providerKind: Label(
            64,
            'The organisation’s role for the system: `first_party` (builds and uses it), `provider`, `deployer`, `third_party`, `importer` or `distributor`; it selects which obligations are listed.',
          ).optional(),
          deployerType: z.enum(['public_body', 'public_service', 'private']).optional().meta({
            description:
              'Who deploys the system (Art. 27(1)): a body governed by public law, a private entity providing public services, or another private deployer. It decides whether a fundamental rights impact assessment is due for the Annex III uses where that depends on the deployer; without it the classifier reads the texts.',
          }),
          intendedUsers: z.array(Label(200, 'A group of users.')).max(50).optional().meta({
            description: 'Who uses the system or is affected by it (for example `employees`, `students`, `patients`); read as context.',
          }),
        })
        .optional()
        .meta({ description: 'The AI system to classify (form A). One of `aiSystem`, `purpose` or `systemId` is required.' }),
      asOf: z.iso
        .date()
        .optional()
        .meta({
          description:
            'The day to classify as of (YYYY-MM-DD; default today): the dates that apply are those the law stated on that day (before an amendment entered into force, its dates as enacted), and obligations repealed by then are not listed.',
          examples: ['2026-09-01'],
        }),
      jurisdiction: Label(
        64,
        'Jurisdiction of the use (for example `eu`); informative, the Act applies to systems placed on or used in the Union market.',
      ).optional(),
      applicableFrameworks: z
        .array(Label(100, 'A framework id.'))
        .max(30)
        .optional()
        .meta({ description: 'Framework ids the organisation applies (for example `eu-ai-act`); an unknown id is refused with a 422.' }),
      purpose: Label(
        4000,
        'The intended purpose of the system in plain language (form B). One of `aiSystem`, `purpose` or `systemId` is required.',
      ).optional(),
      affectedPersons: z
        .array(Label(200, 'A group of persons.'))
        .max(50)
        .optional()
        .meta({ description: 'Groups of persons the system affects (for example `children`, `employees`, `migrants`); read as context.' }),
      systemId: z
        .string()
        .min(1)
        .max(128)
        .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
        .optional()
        .meta({
          description:
            'An AI system of the tenant’s declared system profiles (`/v1/public-disclosure/systems/{systemId}`): its name, purpose, context and Art. 50 and GPAI flags are read as part of the description. 404 when the tenant has no such profile.',
        }),
      trainingComputeFlops: z.number().positive().optional().meta({
        description: 'Cumulative training compute of a general-purpose model in FLOPs; above 10^25 systemic risk is presumed (Art. 51(2)).',
      }),
    })
    .refine((b) => b.aiSystem !== undefined || b.purpose !== undefined || b.systemId !== undefined, {
      path: ['purpose'],
      message: 'give aiSystem (with its purpose), purpose or systemId',
    })
    .meta({
      id: 'AgentClassifierInput',
      examples: [
        exampleInput,
        {
          aiSystem: {
            name: 'Support assistant',
            purpose: 'Customer support chatbot on our website that answers questions about orders.',
            providerKind: 'first_party',
            intendedUsers: ['customers'],
          },
          jurisdiction: 'eu',
          applicableFrameworks: ['eu-ai-act'],
        },
        { purpose: 'Monitors employees’ emotions through their webcams during video calls.', affectedPersons: ['employees'] },
      ],
    }),
  output: z
    .object({
      riskLevel: RiskLevel,
      area: Area,
      rationale: z
        .string()
        .meta({ description: 'Why: the provisions applied, the phrases that triggered them, the exceptions and derogations considered.' }),
      applicableClauses: z.array(z.string()).meta({
        description:
          'Clause ids of the `eu-ai-act` dictionary that apply, in the dictionary’s order (for example `art-5-1-f`, `annex-iii-4`).',
      }),
      matched: z
        .array(
          z.object({
            rule: z.string().meta({ description: 'Id of the rule that fired.' }),
            level: RiskLevel,
            area: Area,
            provision: z.string().meta({ description: 'The provision the rule applies.' }),
            title: z.string().meta({ description: 'What the rule recognises.' }),
            phrases: z.array(Hit).meta({ description: 'The phrases that made it fire.' }),
          }),
        )
        .meta({ description: 'Every rule that fired, of every class, in the rule set’s order.' }),
      exceptions: z
        .array(
          z.object({
            rule: z.string().meta({ description: 'Id of the rule that did not apply.' }),
            provision: z.string().meta({ description: 'Its provision.' }),
            reason: z.string().meta({ description: 'The exception or exclusion that applies.' }),
            phrases: z.array(Hit).meta({ description: 'The phrases that triggered the exception.' }),
          }),
        )
        .meta({
          description:
            'Rules whose conditions were met but that an exception or exclusion set aside (emotion recognition for safety reasons, fraud detection, biometric verification, the Art. 5(1)(h) exceptions).',
        }),
      derogation: z
        .object({
          applies: z.boolean().meta({ description: 'Whether the Annex III use is not high-risk under Art. 6(3).' }),
          grounds: z
            .array(
              z.object({
                clause: z.string().meta({ description: 'The ground, `art-6-3-a` to `art-6-3-d`.' }),
                title: z.string().meta({ description: 'What the ground covers.' }),
                phrases: z.array(Hit).meta({ description: 'The phrases that show it.' }),
              }),
            )
            .meta({ description: 'The Art. 6(3) grounds the description shows.' }),
          blockedBy: Hit.nullable().meta({
            description: 'The phrase that shows the system profiles natural persons, which excludes the derogation; null when it does not.',
          }),
          rules: z.array(z.string()).meta({ description: 'The Annex III rules the derogation concerns.' }),
        })
        .nullable()
        .meta({ description: 'The Art. 6(3) derogation when an Annex III use shows one of its grounds; null otherwise.' }),
      transparencyDuties: z
        .array(
          z.object({
            clause: z.string().meta({ description: 'The paragraph of Art. 50 (`art-50-1` to `art-50-4`).' }),
            title: z.string().meta({ description: 'Title of the clause in the dictionary.' }),
            holder: z.string().meta({ description: 'Who bears the duty: `provider` or `deployer`.' }),
            duty: z.string().meta({ description: 'What must be done.' }),
            rule: z.string().meta({ description: 'The rule that triggered it.' }),
          }),
        )
        .meta({
          description: 'Art. 50 duties, which hold alongside the high-risk, GPAI and limited classes (none for a prohibited practice).',
        }),
      systemicRisk: z.boolean().meta({
        description: 'For a general-purpose AI model: systemic risk presumed (compute above 10^25 FLOPs, Art. 51(2)) or designated.',
      }),
      trainingComputeFlops: z
        .number()
        .nullable()
        .meta({ description: 'The training compute given or read from the description; null when neither.' }),
      obligations: z
        .array(
          z.object({
            id: z.string().meta({ description: 'Obligation id in the dictionary.' }),
            title: z.string().meta({ description: 'The obligation.' }),
            clauseRef: z.string().meta({ description: 'The clause it comes from.' }),
            actor: z.string().meta({ description: 'Who bears it (provider, deployer, operator, gpai-provider, ...).' }),
            applicableFrom: z.string().meta({ description: 'Date it applies from, as the dictionary gives it (YYYY-MM-DD).' }),
          }),
        )
        .meta({ description: 'The dictionary’s obligations of the applicable clauses for the roles the provider kind implies, by id.' }),
      appliesFrom: z
        .object({
          date: z.string().meta({ description: 'Date the class’s obligations apply from (YYYY-MM-DD).' }),
          source: z.string().meta({ description: 'The provision that sets the date.' }),
          asEnacted: z
            .object({
              date: z.string().meta({ description: 'Date the obligations applied from as originally enacted (YYYY-MM-DD).' }),
              source: z.string().meta({ description: 'The provision that set the original date.' }),
            })
            .nullable()
            .meta({
              description:
                'The other date: as originally enacted when an amendment moved it and the amendment is in force on the day classified; the amended date when it is not yet. Null when no amendment moved it.',
            }),
          inEffect: z
            .boolean()
            .meta({ description: 'Whether the date had passed on the day classified as of (`asOf`, default the day of the decision).' }),
        })
        .nullable()
        .meta({ description: 'When the class’s obligations apply; null for minimal risk.' }),
    })
    .meta({ id: 'AgentClassifierOutput', examples: [exampleOutput] }),
});

/** The EU AI Act classifier (owned by the classifier's module). */
export const classifierAgents = { classifier } as const satisfies Record<string, AgentSpec>;
