import { z } from 'zod';
import { type AgentSpec, agentSpec } from './spec.ts';

/**
 * Compliance-authoring agents: they map, compile, draft and rank from the tenant's records and the
 * framework dictionaries. Every output lists what was missing rather than inventing it.
 */

const d = (description: string) => ({ description });
const Id = (description: string) => z.string().trim().min(1).max(200).meta(d(description));
const Timestamp = z.iso.datetime();
const Coverage = z
  .enum(['full', 'partial'])
  .meta(d('`full` when the other requirement is wholly met by this one, `partial` when only in part.'));
const Source = z
  .object({
    type: z.string().meta(d('Kind of record the content came from (`evidence`, `risk`, `assessment`, `profile`, ...).')),
    id: z.string().meta(d('Id of that record.')),
  })
  .meta(d('A record a section or an item was filled from.'));
const SectionStatus = z
  .enum(['filled', 'partial', 'missing'])
  .meta(d('Whether the records fill the section wholly, in part, or not at all.'));
const Section = z.object({
  id: z.string().meta(d('Stable id of the section.')),
  ref: z.string().meta(d('Provision the section answers.')),
  title: z.string().meta(d('Title of the section.')),
  status: SectionStatus,
  content: z.array(z.string()).meta(d('Lines drafted from the records, in order; empty when the section is missing.')),
  sources: z.array(Source).meta(d('Records the lines were drafted from.')),
  hint: z.string().meta(d('What to record to complete the section.')),
});
const Requirement = z.object({
  framework: z.string().meta(d('Dictionary id of the requirement.')),
  kind: z.enum(['control', 'clause']).meta(d('Whether the requirement is a control or a clause.')),
  ref: z.string().meta(d('Control id or clause reference.')),
  title: z.string().nullable().meta(d('Title of the requirement in the dictionary; null when the dictionary does not name it.')),
});

// ---------------------------------------------------------------- framework-mapper

const frameworkMapper = agentSpec({
  slug: 'framework-mapper',
  title: 'Framework mapper',
  purpose:
    'Given a control, lists every framework and requirement it satisfies through the crosswalks, directly or through one intermediate requirement.',
  group: 'deterministic',
  groupReason: 'The answer is the walk of the published crosswalk edges under fixed composition rules, with nothing weighed.',
  catalogues: ['core14', 'all31'],
  input: z
    .strictObject({
      control: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .meta(
          d(
            'The control to map: a control id (`AIA-RMS-01`, `ISO27001-A.5.1`) or `<framework>:<control or clause>` (`iso-27001:A.5.1`, `eu-ai-act:art-9`).',
          ),
        ),
    })
    .meta({ id: 'AgentFrameworkMapperInput', examples: [{ control: 'AIA-RMS-01' }, { control: 'iso-27001:A.5.1' }] }),
  output: z
    .object({
      control: Requirement.extend({
        clauseRefs: z.array(z.string()).meta(d('Clauses of its own dictionary the control cites; the walk starts from them too.')),
      }).meta(d('The control (or clause) the walk started from.')),
      frameworks: z
        .array(
          z.object({
            framework: z.string().meta(d('Dictionary id.')),
            title: z.string().meta(d('Title of the dictionary.')),
            coverage: Coverage,
            requirements: z
              .array(
                Requirement.extend({
                  relationship: z
                    .string()
                    .meta(
                      d(
                        'Relationship of the starting requirement to this one, read from the starting side (`equal`, `subset`, `superset`, `intersect`).',
                      ),
                    ),
                  strength: z
                    .int()
                    .meta(d('Strength of the mapping from 1 to 10; through an intermediate requirement, the weaker of the two edges.')),
                  coverage: Coverage,
                  hops: z.int().meta(d('1 for a direct crosswalk edge, 2 through one intermediate requirement.')),
                  via: Requirement.nullable().meta(d('The intermediate requirement of a two-step mapping; null for a direct one.')),
                  crosswalks: z.array(z.string()).meta(d('Crosswalks whose edges make the mapping.')),
                }),
              )
              .meta(d('Requirements of the dictionary the control satisfies, full coverage first, then by strength.')),
          }),
        )
        .meta(d('Every dictionary reached, grouped, those with full coverage first.')),
      totals: z
        .object({
          frameworks: z.int().meta(d('Number of dictionaries reached.')),
          requirements: z.int().meta(d('Number of requirements reached.')),
          full: z.int().meta(d('Requirements fully covered.')),
          partial: z.int().meta(d('Requirements partly covered.')),
        })
        .meta(d('Counts of the mapping.')),
    })
    .meta({
      id: 'AgentFrameworkMapperOutput',
      examples: [
        {
          control: {
            framework: 'eu-ai-act',
            kind: 'control',
            ref: 'AIA-RMS-01',
            title: 'Lifecycle risk management system',
            clauseRefs: ['art-9'],
          },
          frameworks: [
            {
              framework: 'iso-iec-42001',
              title: 'ISO/IEC 42001',
              coverage: 'partial',
              requirements: [
                {
                  framework: 'iso-iec-42001',
                  kind: 'control',
                  ref: 'ISO42001-6.1.2',
                  title: 'AI risk assessment',
                  relationship: 'intersect',
                  strength: 7,
                  coverage: 'partial',
                  hops: 1,
                  via: null,
                  crosswalks: ['eu-ai-act--iso-iec-42001'],
                },
              ],
            },
          ],
          totals: { frameworks: 1, requirements: 1, full: 0, partial: 1 },
        },
      ],
    }),
});

// ---------------------------------------------------------------- evidence-compiler

const Freshness = z
  .enum(['fresh', 'stale'])
  .meta(d('`stale` when the evidence expired or is older than the freshness window of its kind.'));
const evidenceCompiler = agentSpec({
  slug: 'evidence-compiler',
  title: 'Evidence compiler',
  purpose:
    "Matches the tenant's evidence to a framework's controls, directly or through crosswalk edges, and emits a hashed evidence pack with covered and uncovered controls.",
  group: 'deterministic',
  groupReason:
    'Each control is covered or not by the evidence that cites it or a crosswalked control, and freshness is a fixed window per kind.',
  catalogues: ['core14', 'all31'],
  input: z
    .strictObject({
      framework: z.string().trim().min(1).max(64).meta(d('Dictionary id whose controls the pack answers (`eu-ai-act`, `iso-iec-27001`).')),
      systemId: Id('Only evidence recorded for this AI system; all of the tenant’s evidence when absent.').optional(),
    })
    .meta({
      id: 'AgentEvidenceCompilerInput',
      examples: [{ framework: 'eu-ai-act' }, { framework: 'iso-iec-27001', systemId: 'sys_credit_scoring' }],
    }),
  output: z
    .object({
      framework: z.string().meta(d('Dictionary id of the pack.')),
      systemId: z.string().nullable().meta(d('The system the pack is for; null for the whole tenant.')),
      asOf: Timestamp.meta(d('Moment freshness was judged at.')),
      controls: z
        .array(
          z.object({
            controlId: z.string().meta(d('Control of the framework.')),
            title: z.string().meta(d('Title of the control.')),
            status: z
              .enum(['covered', 'stale', 'uncovered'])
              .meta(d('`covered` with at least one fresh item, `stale` with only stale items, `uncovered` with none.')),
            evidence: z
              .array(
                z.object({
                  id: z.string().meta(d('Evidence id.')),
                  title: z.string().meta(d('Evidence title.')),
                  sha256: z.string().nullable().meta(d('SHA-256 of the artefact; null when none was recorded.')),
                  collectedAt: Timestamp.meta(d('When the evidence was collected.')),
                  freshness: Freshness,
                  match: z
                    .enum(['direct', 'crosswalk'])
                    .meta(
                      d(
                        '`direct` when the evidence cites the control, `crosswalk` when it cites a control of another framework mapped to it.',
                      ),
                    ),
                  via: z
                    .string()
                    .nullable()
                    .meta(d('The cited control of the other framework for a crosswalk match; null for a direct one.')),
                }),
              )
              .meta(d('Evidence matched to the control, direct matches first.')),
          }),
        )
        .meta(d('Every control of the framework, in dictionary order.')),
      counts: z
        .object({
          controls: z.int().meta(d('Controls of the framework.')),
          covered: z.int().meta(d('Controls with fresh evidence.')),
          stale: z.int().meta(d('Controls with only stale evidence.')),
          uncovered: z.int().meta(d('Controls without evidence.')),
          evidence: z.int().meta(d('Distinct evidence items in the pack.')),
        })
        .meta(d('Counts of the pack.')),
      coveragePercent: z.number().meta(d('Covered controls as a percentage of all controls, to one decimal.')),
      packSha256: z
        .string()
        .meta(d('SHA-256 of the canonical JSON of the controls and their evidence: two packs with the same content have the same hash.')),
    })
    .meta({
      id: 'AgentEvidenceCompilerOutput',
      examples: [
        {
          framework: 'eu-ai-act',
          systemId: null,
          asOf: '2026-11-20T08:00:00.000Z',
          controls: [
            {
              controlId: 'AIA-RMS-01',
              title: 'Lifecycle risk management system',
              status: 'covered',
              evidence: [
                {
                  id: 'evd_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
                  title: 'Risk management procedure',
                  sha256: null,
                  collectedAt: '2026-10-01T00:00:00.000Z',
                  freshness: 'fresh',
                  match: 'direct',
                  via: null,
                },
              ],
            },
          ],
          counts: { controls: 71, covered: 1, stale: 0, uncovered: 70, evidence: 1 },
          coveragePercent: 1.4,
          packSha256: '9f2c1a6e0b8d4f3a7c5e2b1d0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f',
        },
      ],
    }),
});

// ---------------------------------------------------------------- fria

const SystemInput = (id: string, example: string) =>
  z
    .strictObject({ systemId: Id('The AI system: the `systemId` of its disclosure profile, assessments, evidence or RACI assignments.') })
    .meta({ id, examples: [{ systemId: example }] });

const fria = agentSpec({
  slug: 'fria',
  title: 'Fundamental-rights impact assessment author',
  purpose:
    'Drafts the EU AI Act Art. 27 fundamental-rights impact assessment of a system from its records, section (a) to (f), and lists what is missing.',
  group: 'deterministic',
  groupReason: 'Each section is filled from named records by fixed rules; nothing is scored or weighed.',
  catalogues: ['core14', 'all31'],
  input: SystemInput('AgentFriaInput', 'sys_credit_scoring'),
  output: z
    .object({
      systemId: z.string().meta(d('The system assessed.')),
      systemName: z.string().nullable().meta(d('Name from the disclosure profile; null without one.')),
      required: z
        .boolean()
        .meta(
          d(
            'Whether Art. 27 requires the assessment of this deployer role (a deployer or provider-and-deployer); true when the role is unknown.',
          ),
        ),
      sections: z.array(Section).meta(d('Sections (a) to (f) of Art. 27(1), in order.')),
      missing: z.array(z.string()).meta(d('Ids of the sections the records do not fill.')),
      completenessPercent: z.number().meta(d('Share of the sections filled, a partial one counting half, to one decimal.')),
    })
    .meta({
      id: 'AgentFriaOutput',
      examples: [
        {
          systemId: 'sys_credit_scoring',
          systemName: 'Credit scoring',
          required: true,
          sections: [
            {
              id: 'a-processes',
              ref: 'EU AI Act Art. 27(1)(a)',
              title: "Deployer's processes in which the system is used",
              status: 'filled',
              content: ['Scores consumer credit applications.'],
              sources: [{ type: 'profile', id: 'sys_credit_scoring' }],
              hint: 'Record the system profile with its purpose and deployer context.',
            },
          ],
          missing: ['b-period-frequency'],
          completenessPercent: 83.3,
        },
      ],
    }),
});

// ---------------------------------------------------------------- incident-reporter

const REGIMES = ['gdpr', 'uk-gdpr', 'nis2', 'dora', 'eu-ai-act', 'lgpd'] as const;
const incidentReporter = agentSpec({
  slug: 'incident-reporter',
  title: 'Incident reporter',
  purpose:
    'Drafts the regulator-shaped notifications of an incident per regime and stage (GDPR Art. 33, NIS2 Art. 23, DORA, EU AI Act Art. 73) with their deadlines and the fields still missing.',
  group: 'deterministic',
  groupReason: 'Deadlines are the regimes’ clocks and the fields each stage requires are fixed by the rules.',
  catalogues: ['core14', 'all31'],
  input: z
    .strictObject({
      incidentId: Id('An incident disclosure of the tenant (`idc_...`); its regimes, facts and clocks are used.').optional(),
      regime: z
        .enum(REGIMES)
        .optional()
        .meta(d('The regime to draft for; with `incidentId` it narrows the drafts to that regime, without it facts must be given here.')),
      knownAt: Timestamp.optional().meta(d('Without `incidentId`: when the incident became known; the invocation time when absent.')),
      factors: z
        .record(z.string(), z.boolean())
        .optional()
        .meta(d('Without `incidentId`: facts that change which stages apply (`highRiskToDataSubjects`, `death`, ...).')),
      facts: z
        .record(z.string(), z.unknown())
        .optional()
        .meta(d('Without `incidentId`: what is known of the incident, by field name of the incident-disclosures rail.')),
    })
    .superRefine((v, ctx) => {
      if (!v.incidentId && !v.regime)
        ctx.addIssue({ code: 'custom', path: ['incidentId'], message: 'Give an incidentId, or a regime with the facts of the incident.' });
    })
    .meta({
      id: 'AgentIncidentReporterInput',
      examples: [
        {
          regime: 'gdpr',
          knownAt: '2026-11-20T08:00:00.000Z',
          facts: { nature: 'Unauthorised access to customer accounts', approximateDataSubjects: 1200 },
        },
        { incidentId: 'idc_01JD3Z8W2M6Q4X9V7K5T1B0N3R' },
      ],
    }),
  output: z
    .object({
      incident: z
        .object({
          id: z.string().nullable().meta(d('The disclosure drafted for; null for facts given in the request.')),
          title: z.string().nullable().meta(d('Its title.')),
          knownAt: Timestamp.meta(d('When it became known: the start of the clocks.')),
        })
        .meta(d('The incident the drafts are for.')),
      notifications: z
        .array(
          z.object({
            regime: z.string().meta(d('Regime of the notification.')),
            stage: z.string().meta(d('Stage of the regime.')),
            title: z.string().meta(d('What is sent at this stage.')),
            authority: z
              .string()
              .meta(d('Authority notified: the tenant’s channel for the regime when one is recorded, else the regime’s authority.')),
            dueAt: Timestamp.nullable().meta(d('Deadline of the stage; null when the regime sets no fixed time.')),
            state: z.string().meta(d('State of the clock: pending, late, submitted, submitted_late, no_deadline or not_applicable.')),
            source: z.string().meta(d('Legal source of the deadline.')),
            fields: z
              .array(
                z.object({
                  field: z.string().meta(d('Field name.')),
                  label: z.string().meta(d('What the regulator asks for.')),
                  value: z.unknown().meta(d('Value from the incident record; null when missing.')),
                  filled: z.boolean().meta(d('Whether the record gives a value.')),
                }),
              )
              .meta(d('Every field the stage requires, in the regime’s order.')),
            missing: z.array(z.string()).meta(d('Fields still to establish.')),
            body: z.string().meta(d('Draft text of the notification.')),
          }),
        )
        .meta(d('One draft per applicable regime and stage, earliest deadline first.')),
      next: z
        .object({
          regime: z.string().meta(d('Regime of the notification (`gdpr`).')),
          stage: z.string().meta(d('Stage of the notification within the regime (`authority-notification`).')),
          dueAt: Timestamp.meta(d('Deadline of the notification (ISO 8601, UTC).')),
        })
        .nullable()
        .meta(d('The earliest deadline of a notification still to send (pending or already late); null when none is.')),
      missing: z.array(z.string()).meta(d('Every field missing from any draft, sorted.')),
    })
    .meta({
      id: 'AgentIncidentReporterOutput',
      examples: [
        {
          incident: { id: null, title: null, knownAt: '2026-11-20T08:00:00.000Z' },
          notifications: [
            {
              regime: 'gdpr',
              stage: 'authority-notification',
              title: 'Notification of a personal-data breach to the supervisory authority',
              authority: 'The lead supervisory authority (data protection authority)',
              dueAt: '2026-11-23T08:00:00.000Z',
              state: 'pending',
              source: 'GDPR Art. 33(1)',
              fields: [{ field: 'nature', label: 'Nature of the breach', value: 'Unauthorised access to customer accounts', filled: true }],
              missing: ['contactPoint'],
              body: 'Notification of a personal-data breach ...',
            },
          ],
          next: { regime: 'gdpr', stage: 'authority-notification', dueAt: '2026-11-23T08:00:00.000Z' },
          missing: ['contactPoint'],
        },
      ],
    }),
});

// ---------------------------------------------------------------- training-curator

const trainingCurator = agentSpec({
  slug: 'training-curator',
  title: 'Training curator',
  purpose:
    'Builds a personalised AI-literacy (Art. 4) and role-specific training plan from a module catalogue, minus what the person’s valid training records already cover, by priority.',
  group: 'deterministic',
  groupReason:
    'Modules are selected by role and system traits and removed by matching completions; the priority is a fixed sum of rule weights.',
  catalogues: ['core14', 'all31'],
  input: z
    .strictObject({
      role: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .meta(
          d(
            'Role of the catalogue (`developer`, `deployer-operator`, `executive`, `compliance`, `data-protection`, `procurement`, `hr`, `general`).',
          ),
        ),
      systems: z
        .array(Id('An AI system id.'))
        .max(50)
        .optional()
        .meta(d('AI systems the person works on; their profiles add system-specific modules.')),
      personId: Id('A person of the stakeholders rail whose training records are subtracted.').optional(),
    })
    .meta({
      id: 'AgentTrainingCuratorInput',
      examples: [
        { role: 'developer' },
        { role: 'deployer-operator', systems: ['sys_credit_scoring'], personId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R' },
      ],
    }),
  output: z
    .object({
      role: z.string().meta(d('The catalogue role planned for.')),
      personId: z.string().nullable().meta(d('The person whose records were subtracted; null when none was named.')),
      plan: z
        .array(
          z.object({
            moduleId: z.string().meta(d('Module of the catalogue.')),
            title: z.string().meta(d('Title of the module.')),
            priority: z.int().meta(d('Priority: higher first.')),
            hours: z.number().meta(d('Expected duration in hours.')),
            reasons: z.array(z.string()).meta(d('Why the module is in the plan.')),
            references: z.array(z.string()).meta(d('Provisions the module answers.')),
          }),
        )
        .meta(d('Modules to complete, highest priority first.')),
      covered: z
        .array(
          z.object({
            moduleId: z.string().meta(d('Module of the catalogue already covered.')),
            recordId: z.string().meta(d('Training record that covers it.')),
            expiresAt: Timestamp.nullable().meta(d('When that completion stops counting; null when never.')),
          }),
        )
        .meta(d('Modules the person’s valid records already cover.')),
      totalHours: z.number().meta(d('Sum of the hours of the plan.')),
    })
    .meta({
      id: 'AgentTrainingCuratorOutput',
      examples: [
        {
          role: 'developer',
          personId: null,
          plan: [
            {
              moduleId: 'ai-literacy-foundations',
              title: 'AI literacy foundations',
              priority: 100,
              hours: 2,
              reasons: ['Art. 4 requires a sufficient level of AI literacy of every person dealing with AI systems.'],
              references: ['eu-ai-act art-4'],
            },
          ],
          covered: [],
          totalHours: 2,
        },
      ],
    }),
});

// ---------------------------------------------------------------- conformity-guide

const conformityGuide = agentSpec({
  slug: 'conformity-guide',
  title: 'Conformity-assessment guide',
  purpose:
    'Assembles the conformity-assessment dossier of a high-risk system: the Annex IV technical documentation sections backed by records and those missing, and the route (Annex VI internal control or Annex VII notified body).',
  group: 'deterministic',
  groupReason: 'Sections are backed by named records and the route follows Art. 43 conditions stated as rules.',
  catalogues: ['core14', 'all31'],
  input: SystemInput('AgentConformityGuideInput', 'sys_credit_scoring'),
  output: z
    .object({
      systemId: z.string().meta(d('The system of the dossier.')),
      route: z
        .object({
          annex: z.enum(['VI', 'VII']).meta(d('`VI` internal control, `VII` assessment with a notified body.')),
          procedure: z.string().meta(d('Name of the procedure.')),
          reasons: z.array(z.string()).meta(d('The conditions that chose the route.')),
        })
        .meta(d('The conformity-assessment route of Art. 43.')),
      sections: z.array(Section).meta(d('Annex IV sections in order.')),
      missing: z.array(z.string()).meta(d('Ids of the sections without backing records.')),
      readinessPercent: z.number().meta(d('Share of the sections backed, a partial one counting half, to one decimal.')),
    })
    .meta({
      id: 'AgentConformityGuideOutput',
      examples: [
        {
          systemId: 'sys_credit_scoring',
          route: {
            annex: 'VI',
            procedure: 'Internal control (Annex VI)',
            reasons: ['Annex III point 5 system: internal control applies.'],
          },
          sections: [
            {
              id: 'annex-iv-1',
              ref: 'EU AI Act Annex IV point 1',
              title: 'General description of the AI system',
              status: 'filled',
              content: ['Credit scoring: scores consumer credit applications.'],
              sources: [{ type: 'profile', id: 'sys_credit_scoring' }],
              hint: 'Record the system profile.',
            },
          ],
          missing: ['annex-iv-9'],
          readinessPercent: 55.6,
        },
      ],
    }),
});

// ---------------------------------------------------------------- gpai-docs

const gpaiDocs = agentSpec({
  slug: 'gpai-docs',
  title: 'GPAI disclosure pack',
  purpose:
    'Builds the general-purpose AI model provider disclosure pack (Art. 53(1)(a)-(d), Annex XI and XII items) from the training-content summaries and the public-disclosure records, with the items missing.',
  group: 'deterministic',
  groupReason: 'Each item is present or missing by a fixed check on named records; the systemic-risk flag is a fixed compute threshold.',
  catalogues: ['core14', 'all31'],
  input: z
    .strictObject({
      summaryId: Id('A training-content summary of the tenant (`gps_...`).').optional(),
      modelName: z.string().trim().min(1).max(200).optional().meta(d('Only the summaries of models with this name.')),
    })
    .meta({ id: 'AgentGpaiDocsInput', examples: [{}, { modelName: 'Atlas' }] }),
  output: z
    .object({
      models: z
        .array(
          z.object({
            summaryId: z.string().meta(d('The training-content summary.')),
            modelName: z.string().meta(d('Model name.')),
            modelVersion: z.string().meta(d('Model version.')),
            systemicRiskPresumed: z
              .boolean()
              .nullable()
              .meta(
                d('Whether Art. 51(2) presumes systemic risk from the training compute; null without an energy and compute disclosure.'),
              ),
            items: z
              .array(
                z.object({
                  id: z.string().meta(d('Item id.')),
                  ref: z.string().meta(d('Provision of the item.')),
                  title: z.string().meta(d('What the item discloses.')),
                  present: z.boolean().meta(d('Whether the records give it.')),
                  sources: z.array(Source).meta(d('Records that give it.')),
                }),
              )
              .meta(d('Items of the pack, in the order of Art. 53(1).')),
            missing: z.array(z.string()).meta(d('Ids of the items missing.')),
            completenessPercent: z.number().meta(d('Share of the items present, to one decimal.')),
          }),
        )
        .meta(d('One pack per model summary, by id.')),
      missing: z
        .array(z.string())
        .meta(d('Items missing from any pack (`<summaryId>:<item>`), sorted; `summary` when the tenant records no summary.')),
    })
    .meta({
      id: 'AgentGpaiDocsOutput',
      examples: [
        {
          models: [
            {
              summaryId: 'gps_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
              modelName: 'Atlas',
              modelVersion: '2.1',
              systemicRiskPresumed: false,
              items: [
                {
                  id: 'training-content-summary',
                  ref: 'EU AI Act Art. 53(1)(d)',
                  title: 'Public summary of training content',
                  present: true,
                  sources: [],
                },
              ],
              missing: [],
              completenessPercent: 100,
            },
          ],
          missing: [],
        },
      ],
    }),
});

// ---------------------------------------------------------------- risk-navigator

const Ranked = z.object({
  rank: z.int().meta(d('Position, 1 first.')),
  kind: z
    .enum(['risk', 'control_gap'])
    .meta(d('A risk of the register, or a control of an activated framework without evidence or covering policy.')),
  id: z.string().meta(d('Risk id or control id.')),
  title: z.string().meta(d('Title of the risk or the control.')),
  framework: z.string().nullable().meta(d('Dictionary of the control gap or of the most weighty control the risk cites; null when none.')),
  score: z.number().meta(d('Severity × exposure × regulatory weight, to two decimals.')),
  factors: z
    .object({
      severity: z.number().meta(d('Residual likelihood × impact for a risk, the category severity for a control gap.')),
      exposure: z.number().meta(d('Product of the exposure multipliers that apply.')),
      regulatoryWeight: z.number().meta(d('Weight of the domain or the dictionary.')),
    })
    .meta(d('The three factors of the score.')),
  explanation: z.array(z.string()).meta(d('Why the item ranks where it does, one statement per factor.')),
});
const riskNavigator = agentSpec({
  slug: 'risk-navigator',
  title: 'Risk navigator',
  purpose:
    "Ranks the tenant's open risks and control gaps to address next by severity × exposure × regulatory weight and explains each rank.",
  group: 'advisory',
  groupReason: 'It scores and ranks what to do next; the ranking is a judgement a person weighs.',
  catalogues: ['core14'],
  input: z
    .strictObject({
      framework: z.string().trim().min(1).max(64).optional().meta(d('Only gaps of this dictionary and risks citing its controls.')),
      limit: z.int().min(1).max(100).optional().meta(d('How many items to return; 10 when absent.')),
    })
    .meta({ id: 'AgentRiskNavigatorInput', examples: [{}, { framework: 'eu-ai-act', limit: 5 }] }),
  output: z
    .object({
      items: z.array(Ranked).meta(d('The items to address next, best first.')),
      considered: z
        .object({
          risks: z.int().meta(d('Open risks of the register in scope (those citing a control of `framework` when it is given).')),
          controlGaps: z.int().meta(d('Controls of the activated frameworks in scope covered by neither evidence nor a published policy.')),
        })
        .meta(d('How many open risks and control gaps were ranked.')),
    })
    .meta({
      id: 'AgentRiskNavigatorOutput',
      examples: [
        {
          items: [
            {
              rank: 1,
              kind: 'risk',
              id: 'rsk_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
              title: 'Biased credit decisions',
              framework: 'eu-ai-act',
              score: 30,
              factors: { severity: 20, exposure: 1, regulatoryWeight: 1.5 },
              explanation: ['Residual likelihood 4 × impact 5 = 20.'],
            },
          ],
          considered: { risks: 1, controlGaps: 0 },
        },
      ],
    }),
});

// ---------------------------------------------------------------- governance-advisor

const governanceAdvisor = agentSpec({
  slug: 'governance-advisor',
  title: 'Governance advisor',
  purpose:
    'Checks the governance records (RACI, decision rights, approvals, delegations, conflicts) against governance rules and ranks the recommendations.',
  group: 'advisory',
  groupReason: 'It weighs findings by severity and ranks recommendations for a person to act on.',
  catalogues: ['core14'],
  input: z
    .strictObject({
      scope: z
        .enum(['all', 'systems', 'decision-rights', 'approvals', 'delegations', 'conflicts'])
        .optional()
        .meta(d('Which rules to check; all when absent.')),
    })
    .meta({ id: 'AgentGovernanceAdvisorInput', examples: [{}, { scope: 'delegations' }] }),
  output: z
    .object({
      recommendations: z
        .array(
          z.object({
            rank: z.int().meta(d('Position, 1 first.')),
            rule: z.string().meta(d('The governance rule broken.')),
            severity: z.enum(['high', 'medium', 'low']).meta(d('Severity of the rule.')),
            score: z.number().meta(d('Severity weight × the number of records concerned, with a cap.')),
            subjects: z.array(z.string()).meta(d('Ids of the records concerned, sorted.')),
            recommendation: z.string().meta(d('What to do.')),
          }),
        )
        .meta(d('Findings to act on, highest score first.')),
      checked: z.array(z.string()).meta(d('Rules checked.')),
      passed: z.array(z.string()).meta(d('Rules without a finding.')),
    })
    .meta({
      id: 'AgentGovernanceAdvisorOutput',
      examples: [
        {
          recommendations: [
            {
              rank: 1,
              rule: 'accountable-owner',
              severity: 'high',
              score: 10,
              subjects: ['sys_credit_scoring'],
              recommendation: 'Assign exactly one accountable owner to each high-risk system.',
            },
          ],
          checked: ['accountable-owner', 'expired-delegation'],
          passed: ['expired-delegation'],
        },
      ],
    }),
});

// ---------------------------------------------------------------- workflow-catalogue

const workflowCatalogue = agentSpec({
  slug: 'workflow-catalogue',
  title: 'Workflow catalogue',
  purpose:
    "Recommends workflows of the 20-workflow catalogue ranked by fit to the tenant's activated frameworks, its evidence gaps, a stakeholder and a goal, and composes them into a sequence.",
  group: 'advisory',
  groupReason: 'It scores the fit of each workflow and ranks them; a person chooses what to run.',
  catalogues: ['core14', 'all31'],
  input: z
    .strictObject({
      framework: z.string().trim().min(1).max(64).optional().meta(d('Favour workflows citing this dictionary.')),
      stakeholder: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .optional()
        .meta(d('Favour workflows this stakeholder role takes part in (`dpo`, `system-owner`, ...).')),
      goal: z
        .string()
        .trim()
        .min(1)
        .max(500)
        .optional()
        .meta(d('What the tenant wants to achieve, in words (`prepare for an AI Act audit`).')),
      limit: z.int().min(1).max(20).optional().meta(d('How many workflows to recommend; 5 when absent.')),
    })
    .meta({
      id: 'AgentWorkflowCatalogueInput',
      examples: [{}, { framework: 'eu-ai-act', goal: 'assess a high-risk AI system before release' }],
    }),
  output: z
    .object({
      recommendations: z
        .array(
          z.object({
            rank: z.int().meta(d('Position, 1 first.')),
            workflowId: z.string().meta(d('Workflow of the catalogue.')),
            title: z.string().meta(d('Its title.')),
            score: z.number().meta(d('Fit score, to two decimals.')),
            reasons: z.array(z.string()).meta(d('What the score is made of.')),
            gapControls: z.array(z.string()).meta(d('Controls the workflow cites that have no evidence yet, sorted.')),
          }),
        )
        .meta(d('Workflows by fit, best first.')),
      sequence: z
        .array(
          z.object({
            position: z.int().meta(d('Position in the sequence, 1 first.')),
            workflowId: z.string().meta(d('Workflow to run.')),
            phase: z.string().meta(d('Phase of the compliance cycle the workflow belongs to.')),
            steps: z
              .array(z.string())
              .meta(d('Step keys to run; a step owned by the same role with the same references as an earlier one is left out.')),
          }),
        )
        .meta(d('The recommended workflows composed in phase order.')),
    })
    .meta({
      id: 'AgentWorkflowCatalogueOutput',
      examples: [
        {
          recommendations: [
            {
              rank: 1,
              workflowId: 'ai-act-risk-classification',
              title: 'AI Act risk classification',
              score: 7.5,
              reasons: ['Cites an activated framework: eu-ai-act.'],
              gapControls: ['AIA-CLS-02'],
            },
          ],
          sequence: [{ position: 1, workflowId: 'ai-act-risk-classification', phase: 'scope', steps: ['inventory', 'classify'] }],
        },
      ],
    }),
});

// ---------------------------------------------------------------- policy-steward

const policySteward = agentSpec({
  slug: 'policy-steward',
  title: 'Policy steward',
  purpose:
    'Drafts or updates a policy skeleton for a topic from the frameworks the tenant activated, computes the next version and the approver route; it returns the draft and does not write it.',
  group: 'deterministic',
  groupReason:
    'The skeleton is the topic template filtered by activated frameworks, and the route is the approval chain read from the records.',
  catalogues: ['core14', 'all31'],
  input: z
    .strictObject({
      policyId: Id('A policy of the tenant (`pol_...`) to update.').optional(),
      topic: z
        .string()
        .trim()
        .min(1)
        .max(64)
        .optional()
        .meta(
          d(
            'Topic of the template (`ai-governance`, `data-protection`, `information-security`, `incident-response`, `acceptable-use`); inferred from the policy title when absent.',
          ),
        ),
    })
    .superRefine((v, ctx) => {
      if (!v.policyId && !v.topic) ctx.addIssue({ code: 'custom', path: ['topic'], message: 'Give a topic, or a policyId to update.' });
    })
    .meta({ id: 'AgentPolicyStewardInput', examples: [{ topic: 'ai-governance' }, { policyId: 'pol_01JD3Z8W2M6Q4X9V7K5T1B0N3R' }] }),
  output: z
    .object({
      topic: z.string().meta(d('Topic of the template used.')),
      policyId: z.string().nullable().meta(d('The policy updated; null for a new draft.')),
      title: z.string().meta(d('Title of the draft.')),
      nextVersion: z.int().meta(d('Number the draft would take: 1 for a new policy, the current version plus one otherwise.')),
      sections: z
        .array(
          z.object({
            heading: z.string().meta(d('Heading of the section.')),
            status: z.enum(['present', 'new']).meta(d('`present` when the current text has the heading, `new` when the draft adds it.')),
            frameworks: z.array(z.string()).meta(d('Activated dictionaries that call for the section.')),
            controlIds: z.array(z.string()).meta(d('Controls the section answers.')),
            text: z.string().meta(d('Skeleton text of the section.')),
          }),
        )
        .meta(d('Sections of the draft in template order.')),
      draft: z.string().meta(d('The full draft text.')),
      controlIds: z.array(z.string()).meta(d('Every control the draft answers, sorted.')),
      route: z
        .object({
          chainId: z.string().nullable().meta(d('Approval chain the publication would walk; null when none fits.')),
          approvers: z
            .array(
              z.object({
                step: z.int().meta(d('Step, 1 first.')),
                personId: z.string().meta(d('Approver.')),
                name: z.string().nullable().meta(d('Name of the approver; null when unknown.')),
                issues: z.array(z.string()).meta(d('Why the approver cannot act now (inactive, conflict declared); empty when they can.')),
              }),
            )
            .meta(d('Approvers in order.')),
          blocked: z.boolean().meta(d('Whether a step of the route cannot be acted on.')),
        })
        .meta(d('The approver route of the draft.')),
    })
    .meta({
      id: 'AgentPolicyStewardOutput',
      examples: [
        {
          topic: 'ai-governance',
          policyId: null,
          title: 'AI governance policy',
          nextVersion: 1,
          sections: [{ heading: 'Purpose and scope', status: 'new', frameworks: [], controlIds: [], text: 'This policy sets ...' }],
          draft: '# AI governance policy\n\n## Purpose and scope\n\nThis policy sets ...',
          controlIds: [],
          route: { chainId: null, approvers: [], blocked: true },
        },
      ],
    }),
});

export const groupAAgents = {
  frameworkMapper,
  evidenceCompiler,
  fria,
  incidentReporter,
  trainingCurator,
  conformityGuide,
  gpaiDocs,
  riskNavigator,
  governanceAdvisor,
  workflowCatalogue,
  policySteward,
} as const satisfies Record<string, AgentSpec>;
