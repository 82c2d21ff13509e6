import { z } from 'zod';
import { BOTH, d, exampleId, Id, Timestamp } from './shared.ts';
import { agentSpec } from './spec.ts';

const REGIMES = ['gdpr', 'uk-gdpr', 'nis2', 'dora', 'eu-ai-act', 'lgpd'] as const;
export const incidentReporter = agentSpec({
  slug: 'incident-reporter',
  title: 'Incident reporter',
  purpose:
    'Drafts the regulator-shaped notifications of an incident per regime and stage (GDPR Art. 33, NIS2 Art. 23, DORA, EU AI Act Art. 73) with their deadlines and the fields still missing.',
  group: 'deterministic',
  groupReason: 'Deadlines are the regimes’ clocks and the fields each stage requires are fixed by the rules.',
  catalogues: BOTH,
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
        { incidentId: exampleId('idc') },
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
