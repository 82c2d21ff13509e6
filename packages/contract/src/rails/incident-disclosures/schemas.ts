import { z } from 'zod';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { created, EXAMPLE_AT, EXAMPLE_KEY, exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import { CHANNEL_INPUT, DisclosureId, DisclosureStatus, EXAMPLE_STAGE, INCIDENT_REGIMES, Regime } from './fields.ts';

/** The incident disclosures rail's records, request bodies and their examples (index.ts describes the rail). */

export type IncidentRegime = (typeof INCIDENT_REGIMES)[number];

/** `object` of a record of the rail; every one's description names the disclosure as its example. */
function incidentObject<const T extends string>(name: T) {
  return objectField(name, 'svc.incident_disclosures.disclosure');
}

const StageId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z][a-z0-9-]*$/)
  .meta({
    description: 'Stage of the regime (`authority-notification`, `early-warning`, `final-report`); the channel lists each regime’s stages.',
  });
const ChannelId = prefixedId('ich', exampleId('ich'));

/** The stage of a regime a clock, filing, draft or deadline is about. */
const regimeStage = { regime: Regime, stage: StageId };

// The examples follow one incident: a GDPR breach known on 20 November, its notification to the
// authority due 72 hours later.
const EXAMPLE_INCIDENT_TITLE = 'Credential-stuffing attack on the customer portal';
const EXAMPLE_KNOWN_AT = '2026-11-20T08:00:00.000Z';
const EXAMPLE_DUE_AT = '2026-11-23T08:00:00.000Z';
const EXAMPLE_FACTORS = { highRiskToDataSubjects: false };
const EXAMPLE_FACTS = { nature: 'Unauthorised access to 1,200 customer accounts', approximateDataSubjects: 1200 };
const GDPR_NOTIFICATION_TITLE = 'Notification to the supervisory authority';
const GDPR_NOTIFICATION_RULE =
  'Without undue delay and, where feasible, not later than 72 hours after becoming aware of the breach; a later notification states the reasons for the delay.';
const GDPR_NOTIFICATION_SOURCE = 'GDPR Art. 33(1)';
const STAGE_TITLE = 'What is sent at this stage.';

// ---------------------------------------------------------------- rules (from the data file)

export const ClockRule = z
  .object({
    stage: StageId,
    title: z.string().meta({ description: STAGE_TITLE }),
    rule: z.string().meta({ description: 'The deadline in words, as the source states it.' }),
    source: z.string().meta({ description: 'Legal source of the deadline (`GDPR Art. 33(1)`).' }),
    fields: z.array(z.string()).meta({ description: 'Facts of the incident a draft of this stage carries (keys of `facts`).' }),
  })
  .meta({ id: 'IncidentClockRule', description: 'One stage of a regime: what is due, by when, under which provision.' });

// ---------------------------------------------------------------- channels

export const IncidentChannel = z
  .object({
    object: incidentObject('svc.incident_disclosures.channel'),
    id: ChannelId,
    regime: Regime,
    name: z.string().meta({ description: 'Name of the authority the tenant reports to under this regime (`CNIL`, `BaFin`).' }),
    submissionUrl: z.string().nullable().meta({ description: 'Where notifications are filed (portal or form), when given.' }),
    email: z.string().nullable().meta({ description: 'Contact address of the authority, when given.' }),
    authority: z.string().meta({ description: 'Kind of authority the regime names (from the rules data).' }),
    rules: z
      .array(ClockRule)
      .meta({ description: 'The notification rules of the regime, stage by stage (from the rules data, version in `rulesVersion`).' }),
    rulesVersion: z
      .string()
      .meta({ description: 'Version of the rules data the stages come from (`incident-disclosures/regimes@1.0.0`).' }),
    ...created(),
  })
  .meta({
    id: 'IncidentChannel',
    examples: [
      {
        object: 'svc.incident_disclosures.channel',
        id: exampleId('ich'),
        ...CHANNEL_INPUT,
        email: null,
        authority: 'The lead supervisory authority (data protection authority)',
        rules: [
          {
            stage: 'authority-notification',
            title: GDPR_NOTIFICATION_TITLE,
            rule: GDPR_NOTIFICATION_RULE,
            source: GDPR_NOTIFICATION_SOURCE,
            fields: [
              'nature',
              'categoriesOfDataSubjects',
              'approximateDataSubjects',
              'approximateRecords',
              'contactPoint',
              'likelyConsequences',
              'measures',
            ],
          },
        ],
        rulesVersion: 'incident-disclosures/regimes@1.0.0',
        createdBy: EXAMPLE_KEY,
        createdAt: EXAMPLE_AT,
      },
    ],
  });

export const CreateIncidentChannelBody = z
  .strictObject({
    regime: Regime,
    name: z.string().trim().min(1).max(200).meta({ description: 'Name of the authority; unique per regime within the tenant.' }),
    submissionUrl: z
      .url({ protocol: /^https$/ })
      .max(2048)
      .optional()
      .meta({ description: 'Where notifications are filed (https).' }),
    email: z.email().max(254).optional().meta({ description: 'Contact address of the authority.' }),
  })
  .meta({ id: 'CreateIncidentChannelRequest', examples: [CHANNEL_INPUT] });

// ---------------------------------------------------------------- disclosures

export const IncidentFactors = z
  .strictObject({
    highRiskToDataSubjects: z
      .boolean()
      .optional()
      .meta({ description: 'The breach is likely to result in a high risk to people (GDPR Art. 34: data subjects must be told).' }),
    death: z.boolean().optional().meta({ description: 'The incident led to the death of a person (EU AI Act Art. 73(4): 10 days).' }),
    widespreadInfringement: z.boolean().optional().meta({ description: 'A widespread infringement (EU AI Act Art. 73(3): 2 days).' }),
    criticalInfrastructure: z
      .boolean()
      .optional()
      .meta({ description: 'A serious and irreversible disruption of critical infrastructure (EU AI Act Art. 73(3): 2 days).' }),
  })
  .meta({ id: 'IncidentFactors', description: 'Facts that change which stages apply or how short a clock is; absent means false.' });

const Text = (description: string) => z.string().trim().min(1).max(4000).meta({ description });
export const IncidentFacts = z
  .strictObject({
    nature: Text('Nature of the incident or breach.').optional(),
    description: Text('What happened, in full.').optional(),
    categoriesOfDataSubjects: z
      .array(z.string().trim().min(1).max(200))
      .max(50)
      .optional()
      .meta({ description: 'Categories of people concerned.' }),
    approximateDataSubjects: z.int().min(0).max(10_000_000_000).optional().meta({ description: 'Approximate number of people concerned.' }),
    approximateRecords: z.int().min(0).max(1_000_000_000_000).optional().meta({ description: 'Approximate number of records concerned.' }),
    contactPoint: Text('Who the authority can contact (DPO or other contact point).').optional(),
    likelyConsequences: Text('Likely consequences of the incident.').optional(),
    measures: Text('Measures taken or proposed to address it and mitigate its effects.').optional(),
    suspectedMalicious: z
      .boolean()
      .optional()
      .meta({ description: 'Suspected of being caused by unlawful or malicious acts (NIS2 early warning).' }),
    crossBorderImpact: z.boolean().optional().meta({ description: 'Could have a cross-border impact (NIS2).' }),
    severity: Text('Assessed severity.').optional(),
    impact: Text('Impact on services, people or data.').optional(),
    indicatorsOfCompromise: z
      .array(z.string().trim().min(1).max(500))
      .max(100)
      .optional()
      .meta({ description: 'Indicators of compromise.' }),
    rootCause: Text('Root cause, once known.').optional(),
    classificationCriteria: z
      .array(z.string().trim().min(1).max(200))
      .max(20)
      .optional()
      .meta({ description: 'DORA classification criteria met.' }),
    systemId: z.string().trim().min(1).max(200).optional().meta({ description: 'The AI system concerned (EU AI Act).' }),
  })
  .meta({
    id: 'IncidentFacts',
    description: 'What is known of the incident; drafts carry the facts their stage needs and list the missing ones.',
  });

export const IncidentClock = z
  .object({
    ...regimeStage,
    title: z.string().meta({ description: STAGE_TITLE }),
    dueAt: Timestamp.nullable().meta({
      description:
        'Deadline (ISO 8601 UTC), computed from `basis`; null when the regime sets no fixed time (GDPR Art. 34: without undue delay).',
    }),
    basis: z.string().meta({
      description:
        'What the clock counts from: `aware` (`knownAt`), `classified` (`classifiedMajorAt`), or `submission:<stage>` (the filing of an earlier stage); `provisional:<stage>` while that stage is not filed yet, counted from its deadline.',
    }),
    rule: z.string().meta({ description: 'The deadline in words.' }),
    source: z.string().meta({ description: 'Legal source of the deadline that applies (a shorter variant names its own provision).' }),
    submittedAt: Timestamp.nullable().meta({ description: 'When this stage was filed; null until then.' }),
    state: z.enum(['pending', 'late', 'submitted', 'submitted_late', 'no_deadline', 'not_applicable']).meta({
      description:
        '`pending` (not filed, not past due), `late` (not filed, past due), `submitted` or `submitted_late` (filed on or after the deadline), `no_deadline`, or `not_applicable` (the regime did not apply yet when the incident became known).',
    }),
  })
  .meta({ id: 'IncidentClock', description: 'One computed deadline of a disclosure.' });

export const Submission = z
  .object({
    ...regimeStage,
    submittedAt: Timestamp.meta({ description: 'When the stage was filed with the authority.' }),
    channelId: ChannelId.nullable().meta({ description: 'The channel it was filed through, when named.' }),
    reference: z.string().nullable().meta({ description: 'The authority’s case reference, when it gave one.' }),
    recordedBy: z.string().meta({ description: 'Key that recorded the filing.' }),
  })
  .meta({ id: 'IncidentSubmission', description: 'A filing of one stage with an authority.' });

export const Disclosure = z
  .object({
    object: incidentObject('svc.incident_disclosures.disclosure'),
    id: DisclosureId,
    title: z.string().meta({ description: 'Short name of the incident.' }),
    status: DisclosureStatus.meta({ description: '`open` until closed; a closed disclosure takes no filing.' }),
    regimes: z.array(Regime).meta({ description: 'Regimes under which the incident is disclosed.' }),
    knownAt: Timestamp.meta({ description: 'When the tenant became aware of the incident: every clock counts from here.' }),
    classifiedMajorAt: Timestamp.nullable().meta({ description: 'When it was classified as major (DORA); null when not given.' }),
    factors: IncidentFactors,
    facts: IncidentFacts,
    clocks: z.array(IncidentClock).meta({ description: 'Every stage of every regime with its computed deadline and state, by deadline.' }),
    submissions: z.array(Submission).meta({ description: 'Filings made, in the order recorded.' }),
    ...stamps('When the record last changed.'),
  })
  .meta({
    id: 'IncidentDisclosure',
    examples: [
      {
        object: 'svc.incident_disclosures.disclosure',
        id: exampleId('idc'),
        title: EXAMPLE_INCIDENT_TITLE,
        status: 'open',
        regimes: ['gdpr'],
        knownAt: EXAMPLE_KNOWN_AT,
        classifiedMajorAt: null,
        factors: EXAMPLE_FACTORS,
        facts: EXAMPLE_FACTS,
        clocks: [
          {
            ...EXAMPLE_STAGE,
            title: GDPR_NOTIFICATION_TITLE,
            dueAt: EXAMPLE_DUE_AT,
            basis: 'aware',
            rule: GDPR_NOTIFICATION_RULE,
            source: GDPR_NOTIFICATION_SOURCE,
            submittedAt: null,
            state: 'pending',
          },
        ],
        submissions: [],
        ...exampleStamps('2026-11-20T09:00:00.000Z'),
      },
    ],
  });

export const CreateDisclosureBody = z
  .strictObject({
    title: z.string().trim().min(1).max(200).meta({ description: 'Short name of the incident.' }),
    regimes: z.array(Regime).min(1).max(INCIDENT_REGIMES.length).meta({ description: 'Regimes under which it is disclosed, each once.' }),
    knownAt: Timestamp.optional().meta({
      description:
        'When the tenant became aware of it; now when absent. Not in the future. A back-dated record gets the deadlines of that moment.',
    }),
    classifiedMajorAt: Timestamp.optional().meta({
      description:
        'When it was classified as major (DORA), not before `knownAt` and not in the future. Until it is given, the DORA initial notification is due 24 hours after awareness; once given, 4 hours after it, and never later than those 24 hours.',
    }),
    factors: IncidentFactors.optional(),
    facts: IncidentFacts.optional(),
  })
  .meta({
    id: 'CreateIncidentDisclosureRequest',
    examples: [
      {
        title: EXAMPLE_INCIDENT_TITLE,
        regimes: ['gdpr', 'nis2'],
        knownAt: EXAMPLE_KNOWN_AT,
        factors: EXAMPLE_FACTORS,
        facts: EXAMPLE_FACTS,
      },
    ],
  });

export const UpdateDisclosureBody = z
  .strictObject({
    facts: IncidentFacts.optional().meta({ description: 'Facts to set; each given key replaces the stored one, the others stay.' }),
    factors: IncidentFactors.optional().meta({ description: 'Factors to set; each given key replaces the stored one.' }),
    classifiedMajorAt: Timestamp.optional().meta({ description: 'When it was classified as major (DORA), not before `knownAt`.' }),
  })
  .meta({ id: 'UpdateIncidentDisclosureRequest', examples: [{ facts: { rootCause: 'Reused passwords without rate limiting' } }] });

export const RecordSubmissionBody = z
  .strictObject({
    ...regimeStage,
    submittedAt: Timestamp.optional().meta({ description: 'When it was filed; now when absent. Not before `knownAt`, not in the future.' }),
    channelId: ChannelId.optional().meta({ description: 'A channel of the same regime it was filed through.' }),
    reference: z.string().trim().min(1).max(200).optional().meta({ description: 'The authority’s case reference.' }),
  })
  .meta({
    id: 'RecordIncidentSubmissionRequest',
    examples: [{ ...EXAMPLE_STAGE, submittedAt: '2026-11-21T10:00:00.000Z', reference: 'CNIL-2026-4411' }],
  });

// ---------------------------------------------------------------- drafts

/** The draft the examples ask for: GDPR's notification of the example disclosure. */
const DRAFT_INPUT = { disclosureId: exampleId('idc'), ...EXAMPLE_STAGE };

export const DisclosureDraft = z
  .object({
    object: incidentObject('svc.incident_disclosures.disclosure_draft'),
    id: prefixedId('idf', exampleId('idf')),
    disclosureId: DisclosureId,
    ...regimeStage,
    version: z.int().min(1).meta({ description: 'Draft number for this disclosure, regime and stage: 1, 2, ...' }),
    authority: z.string().meta({ description: 'Authority the draft is addressed to: the channel’s name, else the kind the regime names.' }),
    dueAt: Timestamp.nullable().meta({ description: 'Deadline of the stage when the draft was made.' }),
    source: z.string().meta({ description: 'Legal source of the stage.' }),
    fields: z.record(z.string(), z.unknown()).meta({ description: 'The stage’s fields filled from the disclosure’s facts.' }),
    missing: z.array(z.string()).meta({ description: 'Fields the stage needs that the disclosure does not have yet.' }),
    body: z.string().meta({ description: 'The notification as text, in the order the stage lists its fields.' }),
    ...created(),
  })
  .meta({
    id: 'IncidentDisclosureDraft',
    examples: [
      {
        object: 'svc.incident_disclosures.disclosure_draft',
        id: exampleId('idf'),
        ...DRAFT_INPUT,
        version: 1,
        authority: 'CNIL',
        dueAt: EXAMPLE_DUE_AT,
        source: GDPR_NOTIFICATION_SOURCE,
        fields: EXAMPLE_FACTS,
        missing: ['categoriesOfDataSubjects', 'approximateRecords', 'contactPoint', 'likelyConsequences', 'measures'],
        body: 'Notification to the supervisory authority (GDPR Art. 33(1))\nTo: CNIL\n...',
        createdBy: EXAMPLE_KEY,
        createdAt: '2026-11-20T10:00:00.000Z',
      },
    ],
  });

export const CreateDraftBody = z
  .strictObject({
    disclosureId: DisclosureId,
    ...regimeStage,
    channelId: ChannelId.optional().meta({ description: 'The channel to address; the tenant’s first channel of the regime when absent.' }),
  })
  .meta({ id: 'CreateIncidentDraftRequest', examples: [DRAFT_INPUT] });

// ---------------------------------------------------------------- timeline and SLA

export const TimelineEntry = z
  .object({
    at: Timestamp.meta({ description: 'When.' }),
    kind: z.enum(['aware', 'classified', 'reported', 'draft', 'submission', 'due', 'closed', 'reopened']).meta({
      description: 'What happened or falls due: awareness, classification, the record, a draft, a filing, a deadline, closing, reopening.',
    }),
    regime: Regime.nullable().meta({ description: 'Regime of the entry, for drafts, filings and deadlines.' }),
    stage: StageId.nullable().meta({ description: 'Stage of the entry, for drafts, filings and deadlines.' }),
    detail: z.string().meta({ description: 'The entry in words.' }),
  })
  .meta({ id: 'IncidentTimelineEntry' });

export const DisclosureTimeline = z
  .object({
    object: incidentObject('svc.incident_disclosures.timeline'),
    disclosureId: DisclosureId,
    entries: z.array(TimelineEntry).meta({ description: 'Every entry in time order (ties: as listed in `kind`).' }),
  })
  .meta({
    id: 'IncidentTimeline',
    examples: [
      {
        object: 'svc.incident_disclosures.timeline',
        disclosureId: exampleId('idc'),
        entries: [
          { at: EXAMPLE_KNOWN_AT, kind: 'aware', regime: null, stage: null, detail: 'The tenant became aware of the incident.' },
          {
            at: EXAMPLE_DUE_AT,
            kind: 'due',
            ...EXAMPLE_STAGE,
            detail: 'Notification to the supervisory authority due (GDPR Art. 33(1)).',
          },
        ],
      },
    ],
  });

export const SlaItem = z
  .object({
    disclosureId: DisclosureId,
    title: z.string().meta({ description: 'Title of the disclosure.' }),
    ...regimeStage,
    dueAt: Timestamp.meta({ description: 'Deadline.' }),
    state: z.enum(['overdue', 'due_soon', 'on_track']).meta({
      description: '`overdue` (past due at `at`), `due_soon` (due within 24 hours of `at`), `on_track`.',
    }),
    hoursRemaining: z.number().meta({ description: 'Hours from `at` to the deadline, negative when overdue (one decimal).' }),
    source: z.string().meta({ description: 'Legal source of the deadline.' }),
  })
  .meta({ id: 'IncidentSlaItem' });

export const IncidentSla = z
  .object({
    object: incidentObject('svc.incident_disclosures.sla'),
    at: Timestamp.meta({ description: 'The moment the states are computed for.' }),
    overdue: z.int().min(0).meta({ description: 'Unfiled stages past due.' }),
    dueSoon: z.int().min(0).meta({ description: 'Unfiled stages due within 24 hours.' }),
    onTrack: z.int().min(0).meta({ description: 'Other unfiled stages with a deadline.' }),
    items: z.array(SlaItem).meta({ description: 'Every unfiled stage with a deadline of the open disclosures, earliest first.' }),
  })
  .meta({
    id: 'IncidentSla',
    examples: [
      {
        object: 'svc.incident_disclosures.sla',
        at: EXAMPLE_AT,
        overdue: 0,
        dueSoon: 1,
        onTrack: 0,
        items: [
          {
            disclosureId: exampleId('idc'),
            title: EXAMPLE_INCIDENT_TITLE,
            ...EXAMPLE_STAGE,
            dueAt: EXAMPLE_DUE_AT,
            state: 'due_soon',
            hoursRemaining: 22.5,
            source: GDPR_NOTIFICATION_SOURCE,
          },
        ],
      },
    ],
  });

/** Event types the incident_disclosures rail emits. */
/** Data of `incident.sla_breached`: one deadline of a disclosure passed without a filing. */
export const IncidentSlaBreach = z
  .object({
    id: DisclosureId.meta({ description: 'The disclosure whose deadline passed.' }),
    title: z.string().meta({ description: 'Title of the disclosure.' }),
    status: z.literal('open').meta({ description: 'State of the disclosure: only open disclosures are swept.' }),
    ...regimeStage,
    deadline: Timestamp.meta({ description: 'The deadline that passed (ISO 8601 UTC).' }),
    source: z.string().meta({ description: 'Legal source of the deadline (`GDPR Art. 33(1)`).' }),
    detectedAt: Timestamp.meta({ description: 'When the sweep found it late.' }),
  })
  .meta({
    id: 'IncidentSlaBreach',
    description: 'A disclosure deadline missed: emitted once per disclosure, regime, stage and deadline by the deadline sweep.',
    examples: [
      {
        id: exampleId('idc'),
        title: 'Customer database exposed through a misconfigured bucket',
        status: 'open',
        ...EXAMPLE_STAGE,
        deadline: '2026-03-04T09:00:00.000Z',
        source: GDPR_NOTIFICATION_SOURCE,
        detectedAt: '2026-03-04T09:01:00.000Z',
      },
    ],
  });
