import { z } from 'zod';
import { ALL31, CalendarDate, exampleId, Iso, Timestamp } from './shared.ts';
import { agentSpec } from './spec.ts';

const DsarRegimeId = z.enum(['gdpr', 'uk-gdpr', 'ccpa', 'lgpd', 'dpdp']);
const dsarHandlerExample = {
  requestId: null,
  regime: 'gdpr',
  regulator: 'EU/EEA supervisory authority (lead data protection authority)',
  kind: 'access',
  kindSource: 'GDPR Art. 15',
  receivedAt: '2025-01-31T09:00:00.000Z',
  sla: {
    dueDate: '2025-02-28',
    rule: 'Without undue delay and in any event within one month of receipt of the request.',
    source: 'GDPR Art. 12(3)',
    extendedDueDate: null,
    extensionAvailable: '2 months',
    receiptConfirmationDate: null,
    daysLeft: -600,
    state: 'overdue',
  },
  priority: 'urgent',
  stores: [],
  packet: { title: 'Response to a data-subject request under the GDPR', source: 'GDPR Art. 12(1), Art. 15(1)-(3)', sections: [] },
  signOff: { required: true, role: 'data protection officer', reason: 'Every response is released by a person.' },
  nextSteps: ['Verify the identity of the data subject.'],
};
export const dsarHandler = agentSpec({
  slug: 'dsar-handler',
  title: 'DSAR handler',
  purpose:
    'Triages a data-subject request by regime (GDPR, UK GDPR, CCPA, LGPD, DPDP): computes its statutory due date and state, enumerates the declared stores to search, outlines the response packet and routes it for human sign-off.',
  group: 'deterministic',
  groupReason: 'The due date, the stores and the packet outline follow from the statutory rules and the declared stores.',
  catalogues: ALL31,
  input: z
    .strictObject({
      requestId: z
        .string()
        .min(1)
        .optional()
        .meta({ description: 'Id of a recorded request (`dsr_...`); or give `jurisdiction`, `receivedAt` and `kind`.' }),
      jurisdiction: DsarRegimeId.optional().meta({ description: 'Regime of a request not yet recorded.' }),
      receivedAt: Timestamp.optional().meta({ description: 'When the request was received (ISO 8601).' }),
      kind: z
        .enum(['access', 'rectification', 'erasure', 'restriction', 'portability', 'objection', 'opt-out', 'limit-use', 'grievance'])
        .optional()
        .meta({ description: 'What the subject asks for.' }),
      subjectType: z
        .string()
        .min(1)
        .max(40)
        .optional()
        .meta({ description: 'Kind of data subject (`customer`, `employee`) for a request not yet recorded; `customer` when absent.' }),
    })
    .meta({
      id: 'AgentDsarHandlerInput',
      examples: [{ jurisdiction: 'gdpr', receivedAt: '2025-01-31T09:00:00.000Z', kind: 'access' }, { requestId: exampleId('dsr') }],
    }),
  output: z
    .object({
      requestId: z.string().nullable().meta({ description: 'The recorded request, null for a hypothetical one.' }),
      regime: DsarRegimeId.meta({ description: 'The regime the request falls under.' }),
      regulator: z.string().meta({ description: 'The regulator of the regime.' }),
      kind: z.string().meta({ description: 'The kind of request.' }),
      kindSource: z.string().meta({ description: 'The provision granting that right.' }),
      receivedAt: Iso.meta({ description: 'When the request was received.' }),
      sla: z
        .object({
          dueDate: CalendarDate.nullable().meta({
            description:
              'Statutory due date (end of that day, UTC); null when there is none (the regime did not apply yet, or the law fixes no period for the kind).',
          }),
          rule: z.string().meta({ description: 'The statutory deadline rule in words, as the regime’s rules state it.' }),
          source: z.string().meta({ description: 'The provision that sets the deadline (`GDPR Art. 12(3)`).' }),
          extendedDueDate: CalendarDate.nullable().meta({ description: 'Due date after the extension, when the request was extended.' }),
          extensionAvailable: z.string().nullable().meta({ description: 'The extension the regime allows, null when none.' }),
          receiptConfirmationDate: CalendarDate.nullable().meta({
            description: 'Date by which receipt must be confirmed, when the regime requires it.',
          }),
          daysLeft: z
            .int()
            .nullable()
            .meta({ description: 'Days from the invocation date to the effective due date (negative: late); null without a due date.' }),
          state: z.enum(['on_track', 'at_risk', 'overdue', 'closed', 'no_deadline']).meta({
            description:
              'State of the clock: `closed` once the request is fulfilled or rejected, `overdue` when the effective due date has passed, `at_risk` within the regime’s at-risk days of it, `on_track` otherwise.',
          }),
        })
        .meta({ description: 'The statutory clock.' }),
      priority: z.enum(['normal', 'high', 'urgent']).meta({ description: 'Triage priority by the state of the clock.' }),
      stores: z
        .array(
          z.object({
            storeId: z.string().meta({ description: 'Id of the declared data store (`dst_...`).' }),
            name: z.string().meta({ description: 'Name of the data store.' }),
            system: z.string().meta({ description: 'The system the store lives in, as declared.' }),
            categories: z.array(z.string()).meta({ description: 'Data categories the store holds.' }),
            action: z.string().meta({ description: 'What to do in the store for this kind of request.' }),
          }),
        )
        .meta({ description: 'Declared stores holding data of the subject’s type, and what to do in each for this kind of request.' }),
      packet: z
        .object({
          title: z.string().meta({ description: 'Title of the response the regime requires.' }),
          source: z.string().meta({ description: 'The provisions that set what the response must contain.' }),
          sections: z
            .array(
              z.object({
                heading: z.string().meta({ description: 'Heading of the section.' }),
                content: z.string().meta({ description: 'Drafted content of the section, to be completed by the reviewer.' }),
              }),
            )
            .meta({
              description: 'Sections of the response: the request first, then one per item the regime requires the response to include.',
            }),
        })
        .meta({ description: 'Outline of the response packet the regime requires.' }),
      signOff: z
        .object({
          required: z.boolean().meta({ description: 'Whether a person must sign the response off; always true.' }),
          role: z.string().meta({ description: 'Role that signs the response off under the regime (`data protection officer`).' }),
          reason: z.string().meta({ description: 'Why a person must check the response before it is sent.' }),
        })
        .meta({ description: 'Who must sign the response off before it is sent; never sent automatically.' }),
      nextSteps: z.array(z.string()).meta({ description: 'What to do next, by the state of the request.' }),
    })
    .meta({ id: 'AgentDsarHandlerOutput', examples: [dsarHandlerExample] }),
});
