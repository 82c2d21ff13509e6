import { z } from 'zod';
import { prefixedId, Timestamp } from '../../shared/common.ts';
import { CREATED_AT_DESCRIPTION, created, EXAMPLE_KEY, exampleId, exampleStamps, objectField, stamps } from '../../shared/records.ts';
import {
  DSAR_KINDS,
  DSAR_REGIMES,
  EXAMPLE_STORE,
  ItemStatus,
  Kind,
  Regime,
  Status,
  StoreId,
  SUBJECT_TYPES,
  SubjectType,
} from './fields.ts';

/** The dsar rail's records, request bodies and their examples (index.ts describes the rail). */

export type DsarRegime = (typeof DSAR_REGIMES)[number];
export type DsarKind = (typeof DSAR_KINDS)[number];
/** The states in which a request is open (its clock runs). */
export const DSAR_OPEN_STATUSES = ['received', 'verified', 'in_progress'] as const;

/** The `object` field of a dsar record; its description names the rail's first object as the example. */
const dsarObject = <const T extends string>(name: T) => objectField(name, 'svc.dsar.request');
const CalendarDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .meta({ examples: ['2026-12-20'] });

const EXAMPLE_REQUEST = exampleId('dsr');
const EXAMPLE_ITEM = exampleId('dsf');
const EXAMPLE_EXPORT = exampleId('dsx');
const EXAMPLE_REDACTION = exampleId('dsd');

/** The examples' data subject, the regulator of her GDPR request and the hash of the packet answering it. */
const EXAMPLE_SUBJECT = { name: 'Jana Novak', email: 'jana.novak@example.com', type: 'customer' };
const EXAMPLE_GDPR_REGULATOR = 'EU/EEA supervisory authority (lead data protection authority)';
const EXAMPLE_PACKET_SHA256 = 'a3f1c0e5b1d2e4f6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4';

export const DsarRequestId = prefixedId('dsr', EXAMPLE_REQUEST);
const ExportId = prefixedId('dsx', EXAMPLE_EXPORT);
const requestRef = (description: string) => DsarRequestId.meta({ description, examples: [EXAMPLE_REQUEST] });

const VERIFICATION_METHODS = [
  'email_confirmation',
  'account_login',
  'document_check',
  'knowledge_based',
  'authorized_agent',
  'other',
] as const;
const VerificationMethod = z.enum(VERIFICATION_METHODS).meta({
  description:
    'How the identity was checked: `email_confirmation`, `account_login`, `document_check`, `knowledge_based`, `authorized_agent` (proof of an agent’s authority) or `other`.',
});

// ---------------------------------------------------------------- requests

const Subject = z
  .object({
    name: z.string().meta({ description: 'Name of the data subject, as given.' }),
    email: z.string().nullable().meta({ description: 'Email address of the data subject, as given; null when not given.' }),
    type: SubjectType,
  })
  .meta({ id: 'DsarSubject', description: 'The person the request is about.' });

const Verification = z
  .object({
    method: VerificationMethod,
    outcome: z
      .enum(['passed', 'failed'])
      .meta({ description: '`passed` verifies the request; `failed` is recorded and leaves it `received`.' }),
    notes: z.string().nullable().meta({ description: 'What was checked; null when not given.' }),
    informationReceivedAt: Timestamp.nullable().meta({
      description:
        'When the identity information the controller asked for arrived; null when none was asked for. Under UK GDPR Art. 12A the period for answering begins with it when it is later than the receipt (`clockStartedAt`).',
    }),
    verifiedAt: Timestamp.meta({ description: 'When the check was made.' }),
    recordedBy: z.string().meta({ description: 'Key that recorded the check.' }),
  })
  .meta({ id: 'DsarVerification', description: 'One identity check of the requester.' });

export const DsarRequest = z
  .object({
    object: dsarObject('svc.dsar.request'),
    id: DsarRequestId,
    regime: Regime,
    kind: Kind,
    kindSource: z.string().meta({ description: 'Legal source of the right exercised (`GDPR Art. 15`), from the rules data.' }),
    regulator: z.string().meta({ description: 'Authority that oversees the regime (from the rules data); the SLA view groups by it.' }),
    subject: Subject,
    description: z.string().nullable().meta({ description: 'What the subject asked, in their words; null when not given.' }),
    status: Status,
    receivedAt: Timestamp.meta({ description: 'When the request was received.' }),
    clockStartedAt: Timestamp.meta({
      description:
        'When the period for answering began; `dueDate` counts from its UTC calendar date. The receipt, or under UK GDPR Art. 12A (requests received from 5 February 2026) the relevant time: the later arrival of the identity information the controller asked for under Art. 12(6), recorded on an identity check.',
    }),
    applicable: z.boolean().meta({
      description: 'Whether the regime (and the right exercised) applied on the UTC date of receipt; false: no statutory date is computed.',
    }),
    applicableFrom: z
      .object({
        date: CalendarDate.meta({ description: 'First date of receipt the regime, or the right exercised when later, applies to.' }),
        rule: z.string().meta({ description: 'The rule in words.' }),
        source: z.string().meta({ description: 'Legal source (`GDPR Art. 99(2)`).' }),
      })
      .meta({ description: 'From when the regime, or the right exercised, applies (rules data).' }),
    noDueDate: z
      .object({
        reason: z.enum(['not_yet_applicable', 'no_statutory_period']).meta({
          description:
            '`not_yet_applicable`: received before `applicableFrom.date`; `no_statutory_period`: the law fixes no period for this kind of request.',
        }),
        rule: z.string().meta({ description: 'Why, in words.' }),
        source: z.string().meta({ description: 'Legal source.' }),
      })
      .nullable()
      .meta({ description: 'Why the request has no statutory due date (every date is then null); null when it has one.' }),
    dueDate: CalendarDate.nullable().meta({
      description: 'Statutory due date (UTC calendar date), computed from `receivedAt` by `deadline`; null when `noDueDate` says why not.',
    }),
    dueAt: Timestamp.nullable().meta({
      description: 'End of `dueDate` (23:59:59.999 UTC): the request is late after it; null without a due date.',
    }),
    extendedDueDate: CalendarDate.nullable().meta({
      description: 'Due date after the extension, counted from `dueDate` by the extension rule; null when not extended.',
    }),
    extendedDueAt: Timestamp.nullable().meta({ description: 'End of `extendedDueDate`; null when not extended.' }),
    deadline: z
      .object({
        amount: z.int().nullable().meta({ description: 'Length of the period; null when the law fixes none for this kind.' }),
        unit: z
          .enum(['days', 'business_days', 'months'])
          .nullable()
          .meta({ description: 'Unit of the period; null when the law fixes none for this kind.' }),
        rule: z.string().meta({ description: 'The deadline in words, as the source states it.' }),
        source: z.string().meta({ description: 'Legal source of the deadline (`GDPR Art. 12(3)`).' }),
      })
      .meta({ description: 'The rule `dueDate` is computed by.' }),
    extension: z
      .object({
        allowed: z.boolean().meta({ description: 'Whether the regime allows an extension for this kind of request.' }),
        amount: z.int().nullable().meta({ description: 'Length of the extension; null when none is allowed.' }),
        unit: z
          .enum(['days', 'business_days', 'months'])
          .nullable()
          .meta({ description: 'Unit of the extension; null when none is allowed.' }),
        rule: z.string().nullable().meta({ description: 'The extension rule in words; null when none is allowed.' }),
        source: z.string().nullable().meta({ description: 'Legal source of the extension; null when none is allowed.' }),
        extendedAt: Timestamp.nullable().meta({ description: 'When the request was extended; null when not extended.' }),
        reason: z.string().nullable().meta({ description: 'Why it was extended (told to the subject); null when not extended.' }),
        notice: z
          .object({
            rule: z.string().meta({ description: 'The notice the regime requires, in words.' }),
            source: z.string().meta({ description: 'Legal source of the notice.' }),
            sendBy: CalendarDate.meta({ description: 'Last day the notice may be sent: the original due date.' }),
            sentAt: Timestamp.meta({ description: 'When the subject was told of the extension and its reasons.' }),
          })
          .nullable()
          .meta({ description: 'The notice of the extension to the subject; null when not extended.' }),
      })
      .meta({ description: 'The one extension the regime allows, and whether it was used.' }),
    clockPause: z
      .object({
        allowed: z.boolean().meta({
          description: 'Whether the regime lets the clock stand still for this request while the controller waits for information.',
        }),
        rule: z.string().nullable().meta({ description: 'The pause rule in words; null when none applies.' }),
        source: z.string().nullable().meta({ description: 'Legal source of the pause (`UK GDPR Art. 12A`); null when none applies.' }),
        pauses: z
          .array(
            z.object({
              askedAt: Timestamp.meta({ description: 'When the controller asked the subject for the information.' }),
              reason: z.string().meta({ description: 'What information was asked for, and why it is needed.' }),
              answeredAt: Timestamp.nullable().meta({ description: 'When the answer arrived; null while the clock stands still.' }),
              days: z
                .int()
                .meta({ description: 'Calendar days the pause adds: from the day asked to the day answered (to today while open).' }),
            }),
          )
          .meta({ description: 'Each pause, in order.' }),
        pausedDays: z.int().meta({ description: 'Days all pauses added to `dueDate`.' }),
      })
      .meta({
        description:
          'The stop of the clock a regime allows while the controller waits for information it reasonably needs to answer (UK GDPR Art. 12A, access requests received from 5 February 2026): the days count neither towards the period nor towards the month for the extension notice.',
      }),
    receiptConfirmation: z
      .object({
        dueDate: CalendarDate.meta({ description: 'Last day to confirm receipt (business days skip weekends).' }),
        rule: z.string().meta({ description: 'The rule in words.' }),
        source: z.string().meta({ description: 'Legal source (`11 CCR § 7021(a)`).' }),
      })
      .nullable()
      .meta({ description: 'The receipt confirmation the regime requires for this kind (CCPA); null when none.' }),
    verifications: z.array(Verification).meta({ description: 'Identity checks recorded, in order.' }),
    verifiedAt: Timestamp.nullable().meta({ description: 'When the identity check passed; null until then.' }),
    startedAt: Timestamp.nullable().meta({ description: 'When fulfillment started; null until then.' }),
    fulfilledAt: Timestamp.nullable().meta({ description: 'When the request was fulfilled; null until then.' }),
    rejectedAt: Timestamp.nullable().meta({ description: 'When the request was rejected; null unless rejected.' }),
    rejectionReason: z.string().nullable().meta({ description: 'Why it was rejected; null unless rejected.' }),
    rulesVersion: z.string().meta({ description: 'Version of the rules data the dates come from (`dsar/regimes@1.0.0`).' }),
    ...stamps('When the record last changed.'),
  })
  .meta({
    id: 'DsarRequest',
    examples: [
      {
        object: 'svc.dsar.request',
        id: EXAMPLE_REQUEST,
        regime: 'gdpr',
        kind: 'access',
        kindSource: 'GDPR Art. 15',
        regulator: EXAMPLE_GDPR_REGULATOR,
        subject: EXAMPLE_SUBJECT,
        description: 'Copy of all data you hold about me.',
        status: 'received',
        receivedAt: '2026-11-20T09:00:00.000Z',
        clockStartedAt: '2026-11-20T09:00:00.000Z',
        applicable: true,
        applicableFrom: { date: '2018-05-25', rule: 'The Regulation applies from 25 May 2018.', source: 'GDPR Art. 99(2)' },
        noDueDate: null,
        dueDate: '2026-12-20',
        dueAt: '2026-12-20T23:59:59.999Z',
        extendedDueDate: null,
        extendedDueAt: null,
        deadline: {
          amount: 1,
          unit: 'months',
          rule: 'Without undue delay and in any event within one month of receipt of the request.',
          source: 'GDPR Art. 12(3)',
        },
        extension: {
          allowed: true,
          amount: 2,
          unit: 'months',
          rule: 'May be extended by two further months where necessary, counted from the original due date.',
          source: 'GDPR Art. 12(3)',
          extendedAt: null,
          reason: null,
          notice: null,
        },
        clockPause: { allowed: false, rule: null, source: null, pauses: [], pausedDays: 0 },
        receiptConfirmation: null,
        verifications: [],
        verifiedAt: null,
        startedAt: null,
        fulfilledAt: null,
        rejectedAt: null,
        rejectionReason: null,
        rulesVersion: 'dsar/regimes@1.3.0',
        ...exampleStamps('2026-11-20T09:05:00.000Z'),
      },
    ],
  });

export const CreateDsarRequestBody = z
  .strictObject({
    regime: Regime,
    kind: Kind,
    subject: z
      .strictObject({
        name: z.string().trim().min(1).max(200).meta({ description: 'Name of the data subject, as given.' }),
        email: z.email().max(254).optional().meta({ description: 'Email address of the data subject, as given.' }),
        type: SubjectType.optional().meta({
          description: 'Kind of data subject; `customer` when absent. Picks the stores that hold their data.',
        }),
      })
      .meta({ description: 'The person the request is about.' }),
    receivedAt: Timestamp.optional().meta({
      description: 'When the request was received; now when absent. Not in the future. A back-dated request gets the dates of that day.',
    }),
    description: z.string().trim().min(1).max(4000).optional().meta({ description: 'What the subject asked, in their words.' }),
  })
  .meta({
    id: 'CreateDsarRequest',
    examples: [
      {
        regime: 'gdpr',
        kind: 'access',
        subject: EXAMPLE_SUBJECT,
        receivedAt: '2026-11-20T09:00:00.000Z',
        description: 'Copy of all data you hold about me.',
      },
    ],
  });

export const ExtendDsarRequestBody = z
  .strictObject({
    reason: z
      .string()
      .trim()
      .min(1)
      .max(2000)
      .meta({ description: 'Why the extension is necessary (complexity, number of requests); told to the subject.' }),
    extendedAt: Timestamp.optional().meta({
      description:
        'When the extension was decided; now when absent. Not before `receivedAt`, not in the future, and before the end of the original due date.',
    }),
    noticeSentAt: Timestamp.optional().meta({
      description:
        'When the subject was told of the extension and its reasons; `extendedAt` when absent. Must fall within the first period (by the original due date), as the regime requires.',
    }),
  })
  .meta({ id: 'ExtendDsarRequest', examples: [{ reason: 'The request covers twelve years of records across four systems.' }] });

export const PauseDsarRequestBody = z
  .strictObject({
    reason: z
      .string()
      .trim()
      .min(3)
      .max(2000)
      .meta({ description: 'What information the controller asks the subject for, and why it needs it to answer.' }),
    askedAt: Timestamp.optional().meta({
      description: 'When the controller asked; now when absent. Not before `receivedAt`, not in the future, and by the due date in force.',
    }),
  })
  .meta({
    id: 'PauseDsarRequest',
    examples: [
      { reason: 'You hold twelve years of records across four systems: which period and which services does the request concern?' },
    ],
  });

export const ResumeDsarRequestBody = z
  .strictObject({
    answeredAt: Timestamp.optional().meta({
      description: 'When the answer arrived; now when absent. Not before the pause began, not in the future.',
    }),
  })
  .meta({ id: 'ResumeDsarRequest', examples: [{}] });

// ---------------------------------------------------------------- verification

export const VerifyDsarBody = z
  .strictObject({
    requestId: requestRef('The request whose requester was checked; 404 when it is not a request of the tenant.'),
    method: VerificationMethod,
    outcome: z.enum(['passed', 'failed']).meta({ description: '`passed` moves the request to `verified`; `failed` is recorded only.' }),
    notes: z.string().trim().min(1).max(2000).optional().meta({ description: 'What was checked.' }),
    verifiedAt: Timestamp.optional().meta({
      description: 'When the check was made; now when absent. Not before `receivedAt`, not in the future.',
    }),
    informationReceivedAt: Timestamp.optional().meta({
      description:
        'When the identity information the controller asked the requester for (UK GDPR Art. 12(6)) arrived. Not before `receivedAt`, not after `verifiedAt`. Under a regime whose period begins with the relevant time (UK GDPR Art. 12A, requests received from 5 February 2026) the due date then counts from it; elsewhere it is recorded only.',
    }),
  })
  .meta({
    id: 'VerifyDsarRequest',
    examples: [
      {
        requestId: EXAMPLE_REQUEST,
        method: 'email_confirmation',
        outcome: 'passed',
        notes: 'The requester confirmed the link sent to the address on file.',
      },
    ],
  });

// ---------------------------------------------------------------- data stores

const STORE_KINDS = ['database', 'saas', 'file_store', 'data_warehouse', 'backup', 'email', 'crm', 'other'] as const;
/** The example store as declared; the record adds its id and stamps. */
const EXAMPLE_STORE_BODY = {
  name: 'Customer CRM',
  system: 'Salesforce',
  kind: 'crm',
  categories: ['contact', 'purchase-history'],
  subjectTypes: ['customer', 'prospect'],
};
const Category = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-z][a-z0-9-]*$/)
  .meta({ description: 'A personal-data category, lowercase with dashes (`contact`, `financial`, `health`).' });

export const DsarDataStore = z
  .object({
    object: dsarObject('svc.dsar.data_store'),
    id: StoreId,
    name: z.string().meta({ description: 'Name of the store (`Customer CRM`).' }),
    system: z.string().meta({ description: 'The system or product behind it (`Salesforce`, `PostgreSQL orders-db`).' }),
    kind: z.enum(STORE_KINDS).meta({ description: 'Kind of store.' }),
    categories: z.array(z.string()).meta({ description: 'Personal-data categories it holds.' }),
    subjectTypes: z
      .array(SubjectType)
      .meta({ description: 'Kinds of data subjects whose data it holds; fulfillment lists it for requests of those.' }),
    ...created(),
  })
  .meta({
    id: 'DsarDataStore',
    examples: [
      {
        object: 'svc.dsar.data_store',
        id: EXAMPLE_STORE,
        ...EXAMPLE_STORE_BODY,
        createdBy: EXAMPLE_KEY,
        createdAt: '2026-11-20T09:00:00.000Z',
      },
    ],
  });

export const CreateDsarDataStoreBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).meta({ description: 'Name of the store.' }),
    system: z.string().trim().min(1).max(200).meta({ description: 'The system or product behind it.' }),
    kind: z.enum(STORE_KINDS).meta({ description: 'Kind of store.' }),
    categories: z.array(Category).min(1).max(50).meta({ description: 'Personal-data categories it holds, at least one.' }),
    subjectTypes: z
      .array(SubjectType)
      .min(1)
      .max(SUBJECT_TYPES.length)
      .optional()
      .meta({ description: 'Kinds of data subjects whose data it holds; `["customer"]` when absent.' }),
  })
  .meta({ id: 'CreateDsarDataStore', examples: [EXAMPLE_STORE_BODY] });

// ---------------------------------------------------------------- fulfillment

const RecordRef = z
  .strictObject({
    type: z
      .string()
      .trim()
      .min(1)
      .max(64)
      .regex(/^[a-z][a-z_]*$/)
      .meta({ description: 'Kind of record (`dsar_request`, `evidence`, `vendor`).' }),
    id: z.string().trim().min(1).max(64).meta({ description: 'Id of the record.' }),
  })
  .meta({ id: 'DsarRecordRef', description: 'A record of the tenant a fulfillment step touched.' });

/** The example item: the example store, listed for the example request and still pending. */
const EXAMPLE_FULFILLMENT_ITEM = {
  object: 'svc.dsar.fulfillment_item',
  id: EXAMPLE_ITEM,
  requestId: EXAMPLE_REQUEST,
  storeId: EXAMPLE_STORE,
  storeName: EXAMPLE_STORE_BODY.name,
  system: EXAMPLE_STORE_BODY.system,
  categories: EXAMPLE_STORE_BODY.categories,
  status: 'pending',
  notes: null,
  records: [],
  closedAt: null,
  closedBy: null,
  createdAt: '2026-11-21T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
};

export const DsarFulfillmentItem = z
  .object({
    object: dsarObject('svc.dsar.fulfillment_item'),
    id: prefixedId('dsf', EXAMPLE_ITEM),
    requestId: DsarRequestId,
    storeId: StoreId,
    storeName: z.string().meta({ description: 'Name of the store when fulfillment started.' }),
    system: z.string().meta({ description: 'System of the store.' }),
    categories: z.array(z.string()).meta({ description: 'Categories of personal data to search in it.' }),
    status: ItemStatus,
    notes: z.string().nullable().meta({ description: 'What was done, or the ground for withholding; null while pending.' }),
    records: z.array(RecordRef).meta({ description: 'Records of the tenant this step erased or exported, when named.' }),
    closedAt: Timestamp.nullable().meta({ description: 'When the item was closed; null while pending.' }),
    closedBy: z.string().nullable().meta({ description: 'Key that closed it; null while pending.' }),
    createdAt: Timestamp.meta({ description: CREATED_AT_DESCRIPTION }),
    updatedAt: Timestamp.meta({ description: 'When the item last changed.' }),
  })
  .meta({ id: 'DsarFulfillmentItem', examples: [EXAMPLE_FULFILLMENT_ITEM] });

export const CloseFulfillmentItemBody = z
  .strictObject({
    notes: z.string().trim().min(1).max(4000).optional().meta({
      description: 'What was done (or, to withhold, the ground: required then, `reason` counts).',
    }),
    reason: z
      .string()
      .trim()
      .min(1)
      .max(1000)
      .optional()
      .meta({ description: 'Why; kept in the audit event (and as the notes when none are given).' }),
    records: z.array(RecordRef).max(100).optional().meta({
      description:
        'Records of the tenant the step erased or exported. For an erasure request, completing an item is refused (409) while the request or one of these records is under a legal hold.',
    }),
  })
  .meta({ id: 'CloseDsarFulfillmentItem', examples: [{ notes: 'Exported 14 contact and order records.' }] });

export const StartFulfillmentBody = z
  .strictObject({ requestId: requestRef('The verified request to fulfill; 404 when it is not a request of the tenant.') })
  .meta({ id: 'StartDsarFulfillment', examples: [{ requestId: EXAMPLE_REQUEST }] });

export const DsarFulfillment = z
  .object({
    object: dsarObject('svc.dsar.fulfillment'),
    requestId: DsarRequestId,
    status: Status,
    items: z.array(DsarFulfillmentItem).meta({ description: 'One item per declared store that holds data of the subject’s type.' }),
  })
  .meta({
    id: 'DsarFulfillment',
    examples: [
      {
        object: 'svc.dsar.fulfillment',
        requestId: EXAMPLE_REQUEST,
        status: 'in_progress',
        items: [EXAMPLE_FULFILLMENT_ITEM],
      },
    ],
  });

// ---------------------------------------------------------------- export (response packets)

export const DsarExport = z
  .object({
    object: dsarObject('svc.dsar.export'),
    id: ExportId,
    requestId: DsarRequestId,
    version: z.int().min(1).meta({ description: 'Packet version for this request: 1, 2, ... (a redaction makes the next one).' }),
    parentExportId: ExportId.nullable().meta({ description: 'The packet this version was redacted from; null for a fresh export.' }),
    redactionId: z.string().nullable().meta({ description: 'The redaction (`dsd_`) that produced this version; null for a fresh export.' }),
    packet: z.record(z.string(), z.unknown()).meta({
      description:
        'The response packet: `request` (regime, kind, subject, status), `verification` (checks), `stores` (per-store results), `dates` (received, due, extended, verified, fulfilled), `answer` (what the regime requires the answer to contain, with its source, and a summary of the results). Redacted values read `[REDACTED: <reason>]`.',
    }),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .meta({ description: 'SHA-256 (lowercase hex) of the packet’s canonical JSON (keys sorted, no spaces).' }),
    ...created(),
  })
  .meta({
    id: 'DsarExport',
    examples: [
      {
        object: 'svc.dsar.export',
        id: EXAMPLE_EXPORT,
        requestId: EXAMPLE_REQUEST,
        version: 1,
        parentExportId: null,
        redactionId: null,
        packet: {
          request: {
            id: EXAMPLE_REQUEST,
            regime: 'gdpr',
            kind: 'access',
            subject: { name: 'Jana Novak', email: 'jana.novak@example.com' },
          },
          stores: [{ store: 'Customer CRM', status: 'done', notes: 'Exported 14 contact and order records.' }],
        },
        sha256: EXAMPLE_PACKET_SHA256,
        createdBy: EXAMPLE_KEY,
        createdAt: '2026-11-25T10:00:00.000Z',
      },
    ],
  });

export const CreateDsarExportBody = z
  .strictObject({
    requestId: requestRef('The request to answer; it must be verified (409 otherwise), 404 when not a request of the tenant.'),
  })
  .meta({ id: 'CreateDsarExport', examples: [{ requestId: EXAMPLE_REQUEST }] });

// ---------------------------------------------------------------- redact

const REDACTION_REASONS = ['third-party-data', 'legal-privilege', 'trade-secret', 'security', 'other'] as const;
const RedactionSpec = z
  .strictObject({
    path: z
      .string()
      .max(500)
      .regex(/^(\/[^/]*)+$/)
      .optional()
      .meta({ description: 'JSON Pointer (RFC 6901) of the value to redact (`/stores/0/notes`); 422 when the packet has no such value.' }),
    start: z
      .int()
      .min(0)
      .max(1_000_000)
      .optional()
      .meta({ description: 'With `path` on a string: first character of the span to redact.' }),
    end: z.int().min(1).max(1_000_000).optional().meta({ description: 'With `path` on a string: the character after the span.' }),
    text: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .meta({ description: 'Text to redact wherever it occurs in the packet’s strings; 422 when it does not occur.' }),
    reason: z
      .enum(REDACTION_REASONS)
      .meta({ description: 'Ground: `third-party-data`, `legal-privilege`, `trade-secret`, `security` or `other`.' }),
    note: z.string().trim().min(1).max(1000).optional().meta({ description: 'Free words on the ground.' }),
  })
  .superRefine((r, ctx) => {
    if ((r.path === undefined) === (r.text === undefined))
      ctx.addIssue({ code: 'custom', path: ['path'], message: 'give exactly one of path and text' });
    if ((r.start === undefined) !== (r.end === undefined))
      ctx.addIssue({ code: 'custom', path: ['start'], message: 'give start and end together' });
    if (r.start !== undefined && r.path === undefined) ctx.addIssue({ code: 'custom', path: ['start'], message: 'a span needs a path' });
    if (r.start !== undefined && r.end !== undefined && r.end <= r.start)
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'end must be after start' });
  })
  .meta({
    id: 'DsarRedactionSpec',
    description: 'One redaction: a value at a path, a span of a string at a path, or a text wherever it occurs.',
    examples: [{ path: '/stores/0/notes', start: 0, end: 12, reason: 'third-party-data', note: 'Names a colleague of the subject.' }],
  });

export const DsarRedaction = z
  .object({
    object: dsarObject('svc.dsar.redaction'),
    id: prefixedId('dsd', EXAMPLE_REDACTION),
    requestId: DsarRequestId,
    sourceExportId: ExportId.meta({ description: 'The packet redacted (kept unchanged).', examples: [EXAMPLE_EXPORT] }),
    resultExportId: ExportId.meta({ description: 'The new packet version the redaction produced.', examples: [EXAMPLE_EXPORT] }),
    version: z.int().min(2).meta({ description: 'Version of the new packet.' }),
    redactions: z
      .array(
        z.object({
          path: z.string().nullable().meta({ description: 'JSON Pointer redacted; null for a text redaction.' }),
          start: z.int().nullable().meta({ description: 'Start of the span; null when the whole value was redacted.' }),
          end: z.int().nullable().meta({ description: 'End of the span; null when the whole value was redacted.' }),
          text: z.string().nullable().meta({ description: 'Text redacted wherever it occurred; null for a path redaction.' }),
          reason: z.enum(REDACTION_REASONS).meta({ description: 'Ground.' }),
          note: z.string().nullable().meta({ description: 'Free words on the ground; null when not given.' }),
          occurrences: z.int().min(1).meta({ description: 'How many values or spans were replaced.' }),
        }),
      )
      .meta({ description: 'The redactions applied, in order.' }),
    sha256Before: z.string().meta({ description: 'SHA-256 of the source packet.' }),
    sha256After: z.string().meta({ description: 'SHA-256 of the new packet.' }),
    ...created(),
  })
  .meta({
    id: 'DsarRedaction',
    examples: [
      {
        object: 'svc.dsar.redaction',
        id: EXAMPLE_REDACTION,
        requestId: EXAMPLE_REQUEST,
        sourceExportId: EXAMPLE_EXPORT,
        resultExportId: 'dsx_01JD3Z8W2M6Q4X9V7K5T1B0N3S',
        version: 2,
        redactions: [
          {
            path: '/stores/0/notes',
            start: null,
            end: null,
            text: null,
            reason: 'third-party-data',
            note: 'Names a colleague.',
            occurrences: 1,
          },
        ],
        sha256Before: EXAMPLE_PACKET_SHA256,
        sha256After: '0b4c5d6e7f8091a2b3c4d5e6f708192a3b4a3f1c0e5b1d2e4f6a7b8c9d0e1f2a',
        createdBy: EXAMPLE_KEY,
        createdAt: '2026-11-25T11:00:00.000Z',
      },
    ],
  });

export const CreateDsarRedactionBody = z
  .strictObject({
    exportId: ExportId.meta({
      description: 'The packet to redact; 404 when it is not a packet of the tenant.',
      examples: [EXAMPLE_EXPORT],
    }),
    redactions: z.array(RedactionSpec).min(1).max(100).meta({ description: 'Redactions to apply, in order.' }),
  })
  .meta({
    id: 'CreateDsarRedaction',
    examples: [
      { exportId: EXAMPLE_EXPORT, redactions: [{ path: '/stores/0/notes', reason: 'third-party-data', note: 'Names a colleague.' }] },
    ],
  });

// ---------------------------------------------------------------- SLA

export const DsarSlaItem = z
  .object({
    requestId: DsarRequestId,
    regime: Regime,
    kind: Kind,
    status: Status,
    regulator: z.string().meta({ description: 'Authority of the regime.' }),
    dueDate: CalendarDate.nullable().meta({
      description: 'The due date in force: the extended one when extended; null without a statutory due date.',
    }),
    extended: z.boolean().meta({ description: 'Whether the request was extended.' }),
    daysRemaining: z
      .int()
      .nullable()
      .meta({ description: 'Calendar days from the date of `at` to `dueDate`; negative when overdue; null without a due date.' }),
    state: z.enum(['on_time', 'at_risk', 'overdue', 'no_deadline']).meta({
      description:
        '`overdue` (past the end of `dueDate` at `at`), `at_risk` (due within the regime’s at-risk days), `on_time`, `no_deadline` (no statutory due date: see `noDueDate`).',
    }),
    noDueDate: z.enum(['not_yet_applicable', 'no_statutory_period']).nullable().meta({
      description: 'Why the request has no statutory due date (as on the request); null when it has one.',
    }),
  })
  .meta({ id: 'DsarSlaItem' });

export const DsarSla = z
  .object({
    object: dsarObject('svc.dsar.sla'),
    at: Timestamp.meta({ description: 'The moment the states are computed for.' }),
    totals: z
      .object({
        open: z.int().min(0).meta({ description: 'Open requests counted.' }),
        onTime: z.int().min(0).meta({ description: 'Of which on time.' }),
        atRisk: z.int().min(0).meta({ description: 'Of which at risk.' }),
        overdue: z.int().min(0).meta({ description: 'Of which overdue.' }),
        noDeadline: z.int().min(0).meta({ description: 'Of which without a statutory due date.' }),
      })
      .meta({ description: 'Counts over every regime.' }),
    regimes: z
      .array(
        z.object({
          regime: Regime,
          regulator: z.string().meta({ description: 'Authority of the regime.' }),
          atRiskDays: z.int().meta({ description: 'Days before the due date from which a request is at risk (rules data).' }),
          open: z.int().min(0).meta({ description: 'Open requests under the regime.' }),
          onTime: z.int().min(0).meta({ description: 'On time.' }),
          atRisk: z.int().min(0).meta({ description: 'At risk.' }),
          overdue: z.int().min(0).meta({ description: 'Overdue.' }),
          noDeadline: z.int().min(0).meta({ description: 'Without a statutory due date.' }),
        }),
      )
      .meta({ description: 'Counts per regime and its regulator, every regime listed.' }),
    items: z.array(DsarSlaItem).meta({ description: 'Every open request received by `at`, earliest due first.' }),
  })
  .meta({
    id: 'DsarSla',
    examples: [
      {
        object: 'svc.dsar.sla',
        at: '2026-12-15T12:00:00.000Z',
        totals: { open: 1, onTime: 0, atRisk: 1, overdue: 0, noDeadline: 0 },
        regimes: [
          {
            regime: 'gdpr',
            regulator: EXAMPLE_GDPR_REGULATOR,
            atRiskDays: 7,
            open: 1,
            onTime: 0,
            atRisk: 1,
            overdue: 0,
            noDeadline: 0,
          },
        ],
        items: [
          {
            requestId: EXAMPLE_REQUEST,
            regime: 'gdpr',
            kind: 'access',
            status: 'verified',
            regulator: EXAMPLE_GDPR_REGULATOR,
            dueDate: '2026-12-20',
            extended: false,
            daysRemaining: 5,
            state: 'at_risk',
            noDueDate: null,
          },
        ],
      },
    ],
  });

// ---------------------------------------------------------------- events

/** Data of `dsar.deadline_approaching`: an open request whose due date is within its regime's at-risk window. */
export const DsarDeadlineApproaching = z
  .object({
    id: DsarRequestId.meta({ description: 'The request.' }),
    regime: z.enum(DSAR_REGIMES).meta({ description: 'Regime of the request.' }),
    kind: z.enum(DSAR_KINDS).meta({ description: 'What the subject asked for.' }),
    status: z.enum(DSAR_OPEN_STATUSES).meta({ description: 'State of the request: only open requests are swept.' }),
    dueDate: z.string().meta({ description: 'Due date in force (the extended one after an extension), `YYYY-MM-DD`.' }),
    dueAt: Timestamp.meta({ description: 'End of the due day (ISO 8601 UTC).' }),
    daysRemaining: z.int().meta({ description: 'Whole days from the sweep to the due date.' }),
    extended: z.boolean().meta({ description: 'True when the due date is the extended one.' }),
  })
  .meta({
    id: 'DsarDeadlineApproaching',
    description: 'A request due soon: emitted once per request and due date by the deadline sweep.',
    examples: [
      {
        id: EXAMPLE_REQUEST,
        regime: 'gdpr',
        kind: 'access',
        status: 'verified',
        dueDate: '2026-12-03',
        dueAt: '2026-12-03T23:59:59.999Z',
        daysRemaining: 5,
        extended: false,
      },
    ],
  });
