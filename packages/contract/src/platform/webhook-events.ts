import { z } from 'zod';
import { Timestamp } from '../shared/common.ts';
import { ACTION_ALIASES } from './action-aliases.ts';

/**
 * The outbound event types: the registry receivers subscribe to, the OpenAPI `webhooks` section and
 * the inbound classifier all come from it. A type is `<category>.<name>`; a subscription names
 * types, category wildcards (`assessment.*`) or `*`. Built rails export their own entries (the
 * resource kit derives them from a resource's declaration) and router.ts registers them; this
 * file holds the types of the specification whose rails are not built yet.
 */

/** Prefixes of the event names, as the specification lists them. */
export const WEBHOOK_EVENT_CATEGORIES = [
  'tenant',
  'ai_system',
  'framework',
  'control',
  'evidence',
  'fria',
  'assessment',
  'audit',
  'incident',
  'dsar',
  'vendor',
  'agent',
  'report',
  'policy',
  'training',
  'gpai_summary',
  'red_team',
  'hierarchy',
  'billing',
  'kye',
] as const;
export type WebhookEventCategory = (typeof WEBHOOK_EVENT_CATEGORIES)[number];

export interface WebhookEventType {
  readonly type: string;
  /** The part before the dot: a category of the specification or the name of a declared resource. */
  readonly category: string;
  readonly summary: string;
  /** Schema of the envelope's `data`. */
  readonly data: z.ZodType;
}

// Building blocks of the `data` schemas of rails that are not built yet. Objects are loose: a rail may
// add fields to its representation without breaking receivers or the emitter.
const id = (description: string) => z.string().min(1).meta({ description });
const at = Timestamp;
const obj = (shape: z.ZodRawShape) => z.looseObject(shape);
const systemId = id('AI system id.');
const actorField = id('Key, user or agent that caused the event.');

/** `tenant.created`: exactly the four fields of the specification. */
export const TenantCreatedData = z
  .strictObject({
    tenant_id: z.string().meta({ description: 'Id of the new tenant (`ten_`).' }),
    display_name: z.string().meta({ description: 'Name of the tenant as shown to people.' }),
    plan: z.string().meta({ description: 'Service tier the tenant is on: sandbox, starter, growth, specialist or enterprise.' }),
    region: z.string().meta({ description: "Data region where the tenant's records are kept (`eu`)." }),
  })
  .meta({
    id: 'TenantCreatedData',
    examples: [{ tenant_id: 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R', display_name: 'Acme Bank', plan: 'growth', region: 'eu' }],
  });

/** An entry of the registry; rails use it for event types the resource kit does not derive. */
export const eventType = (type: string, summary: string, data: z.ZodType): WebhookEventType => ({
  type,
  category: type.split('.')[0] as string,
  summary,
  data,
});
const e = eventType;

const aiSystem = obj({ id: systemId, name: z.string(), purpose: z.string().optional(), riskLevel: z.string().optional() });
const control = obj({ controlId: id('Control id.'), framework: z.string().optional(), status: z.string().optional() });
const fria = obj({ id: id('FRIA (assessment) id.'), systemId, status: z.string() });
const policy = obj({ id: id('Policy id.'), title: z.string(), version: z.string().optional(), status: z.string() });
const training = obj({ moduleId: id('Training module id.'), principal: z.string(), dueAt: at.optional() });
const node = obj({ nodeId: id('Hierarchy node id (workspace, team or entity).'), parentId: z.string().nullable(), kind: z.string() });
const billing = obj({
  providerEventId: z.string(),
  customer: z.string().optional(),
  amount: z.number().optional(),
  currency: z.string().optional(),
});
const kye = obj({ checkId: id('KYE check id.'), entity: z.string(), status: z.string() });

/** Types of the specification whose emitting rails are not built yet (and the tenant lifecycle). */
const PLANNED_EVENT_TYPES: readonly WebhookEventType[] = [
  e('tenant.created', 'A tenant was created.', TenantCreatedData),
  e(
    'tenant.updated',
    "A tenant's name, region or limits changed.",
    obj({ tenant_id: z.string(), changes: z.record(z.string(), z.unknown()) }),
  ),
  e('tenant.tier_changed', 'A tenant moved to another tier.', obj({ tenant_id: z.string(), from: z.string(), to: z.string() })),
  e('tenant.suspended', 'A tenant was suspended.', obj({ tenant_id: z.string(), reason: z.string() })),
  e('tenant.deleted', 'A tenant was deleted.', obj({ tenant_id: z.string() })),

  e('ai_system.registered', 'An AI system was registered.', aiSystem),
  e('ai_system.updated', 'An AI system changed.', aiSystem),
  e('ai_system.classified', 'The classifier assigned a risk level.', aiSystem.extend({ decisionId: z.string(), riskLevel: z.string() })),
  e('ai_system.risk_level_changed', "An AI system's risk level changed.", aiSystem.extend({ from: z.string(), to: z.string() })),
  e('ai_system.retired', 'An AI system was retired.', aiSystem),

  e('framework.deactivated', 'A framework was deactivated.', obj({ framework: z.string(), dictionaryVersion: z.string() })),
  e(
    'framework.version_published',
    'A new dictionary version was published.',
    obj({ framework: z.string(), dictionaryVersion: z.string() }),
  ),
  e(
    'framework.updated',
    "An activated framework's dictionary was upgraded.",
    obj({ framework: z.string(), from: z.string(), to: z.string() }),
  ),

  e('control.status_changed', "A control's implementation status changed.", control.extend({ from: z.string(), to: z.string() })),
  e('control.assigned', 'A control was assigned to an owner.', control.extend({ owner: z.string() })),
  e('control.tested', 'A control test ran.', control.extend({ passed: z.boolean() })),
  e('control.failed', 'A control test failed.', control.extend({ reason: z.string() })),
  e('control.evidence_linked', 'Evidence was linked to a control.', control.extend({ evidenceId: z.string() })),

  e('evidence.expiring', 'Evidence expires within 30 days.', obj({ id: z.string(), expiresAt: at })),
  e('evidence.expired', 'Evidence expired.', obj({ id: z.string(), expiresAt: at })),
  e('evidence.linked', 'Evidence was linked to another control or system.', obj({ id: z.string(), controlIds: z.array(z.string()) })),
  e('evidence.deleted', 'Evidence was deleted.', obj({ id: z.string() })),

  e('fria.created', 'A fundamental-rights impact assessment was started.', fria),
  e('fria.submitted', 'A FRIA was submitted for approval.', fria),
  e('fria.approved', 'A FRIA was approved.', fria.extend({ approvedBy: actorField })),
  e('fria.rejected', 'A FRIA was rejected.', fria.extend({ reason: z.string() })),
  e('fria.completed', 'A FRIA was completed.', fria),

  e(
    'assessment.stage_completed',
    'A stage of an assessment was completed.',
    obj({ id: z.string(), stage: z.string(), completion: z.number() }),
  ),
  e('assessment.archived', 'An assessment was archived.', obj({ id: z.string() })),

  // audit.* of the audit-engine rail: its own (run_started, run_completed, finding_opened, ...).
  e(
    'audit.log_batch_received',
    'A batch of logs arrived from a log-push service at the webhook worker.',
    obj({ provider: z.string(), lines: z.int() }),
  ),

  // incident.*: the incident-disclosures rail's own (reported, updated, disclosed, closed, reopened, sla_breached).

  // agent.*: the agents rail's own; report.*: the reporting rail's own.

  e('policy.drafted', 'A policy draft was created.', policy),
  e('policy.published', 'A policy version was published.', policy),
  e('policy.attested', 'A principal attested a policy.', policy.extend({ principal: z.string() })),
  e('policy.retired', 'A policy was retired.', policy),
  e('policy.review_due', 'A policy is due for review.', policy.extend({ dueAt: at })),

  e('training.assigned', 'A training module was assigned.', training),
  e('training.completed', 'A training module was completed.', training.extend({ score: z.number().optional() })),
  e('training.overdue', 'An assigned training is overdue.', training),
  e('training.certificate_issued', 'A training certificate was issued.', training.extend({ certificateId: z.string() })),

  e('hierarchy.updated', 'The workspace hierarchy changed.', node),
  e('hierarchy.node_added', 'A node was added to the hierarchy.', node),
  e('hierarchy.node_removed', 'A node was removed from the hierarchy.', node),

  e('billing.subscription_created', 'A billing subscription was created.', billing),
  e('billing.subscription_updated', 'A billing subscription changed.', billing),
  e('billing.subscription_canceled', 'A billing subscription was canceled.', billing),
  e('billing.invoice_paid', 'An invoice was paid.', billing),
  e('billing.invoice_payment_failed', 'An invoice payment failed.', billing),
  e(
    'billing.usage_threshold_reached',
    'Usage crossed a share of the monthly quota.',
    obj({ used: z.int(), quota: z.int(), share: z.number() }),
  ),

  e('kye.check_started', 'A know-your-entity check started.', kye),
  e('kye.check_completed', 'A know-your-entity check completed.', kye),
  e('kye.check_failed', 'A know-your-entity check failed.', kye.extend({ reason: z.string() })),
  e('kye.status_changed', "An entity's KYE status changed.", kye.extend({ from: z.string(), to: z.string() })),
];

const REGISTERED: WebhookEventType[] = [];
const BY_TYPE = new Map<string, WebhookEventType>();
const CATEGORIES = new Set<string>(WEBHOOK_EVENT_CATEGORIES);

/** Adds types to the registry; a type registered twice is a programming error caught at import. */
export function registerEventTypes(types: readonly WebhookEventType[]): void {
  for (const t of types) {
    if (BY_TYPE.has(t.type)) throw new Error(`webhook event type ${t.type} is registered twice`);
    if (!/^[a-z][a-z_]*\.[a-z][a-z_]*$/.test(t.type)) throw new Error(`webhook event type ${t.type}: <category>.<name>, lowercase`);
    BY_TYPE.set(t.type, t);
    REGISTERED.push(t);
    CATEGORIES.add(t.category);
  }
}
registerEventTypes(PLANNED_EVENT_TYPES);

/** Every registered type: the planned ones of this file, then those of the built rails. */
export function webhookEventTypes(): readonly WebhookEventType[] {
  return REGISTERED;
}

export function getWebhookEventType(type: string): WebhookEventType | undefined {
  return BY_TYPE.get(type);
}

/**
 * Audit actions of the platform whose event has another name in the registry (the names the
 * specification fixes); any other action is emitted under its own name when that name is
 * registered. Resources declare theirs (`create.event`); the API-key actions are listed here.
 */
export const ACTION_EVENT_TYPES: Readonly<Record<string, string>> = {
  'api_key.created': 'tenant.api_key_created',
  'api_key.revoked': 'tenant.api_key_revoked',
};

/** The registered event type an audit action is emitted as, if any. */
export function eventTypeForAction(action: string): WebhookEventType | undefined {
  return BY_TYPE.get(ACTION_EVENT_TYPES[action] ?? ACTION_ALIASES[action] ?? action);
}

/** True for a registered type, a category wildcard (`assessment.*`) or `*`. */
export function isEventTypeFilter(filter: string): boolean {
  if (filter === '*') return true;
  if (filter.endsWith('.*')) return CATEGORIES.has(filter.slice(0, -2));
  return BY_TYPE.has(filter);
}

/** The filters that select a type: itself, its category wildcard and `*`. */
export function filtersMatching(type: string): string[] {
  return [type, `${type.split('.')[0]}.*`, '*'];
}

/**
 * The canonical kind of an inbound event: the registered type of that name, else the registered type
 * of an alias (`invoice.paid` -> `billing.invoice_paid`), else `unclassified`.
 */
export function classifyInboundType(type: string | undefined, aliases: Readonly<Record<string, string>> = {}): string {
  if (!type) return 'unclassified';
  if (BY_TYPE.has(type)) return type;
  const alias = aliases[type];
  if (alias && BY_TYPE.has(alias)) return alias;
  return 'unclassified';
}

/** Stripe event types and the registered kinds they are filed under. */
export const STRIPE_EVENT_KINDS: Readonly<Record<string, string>> = {
  'customer.subscription.created': 'billing.subscription_created',
  'customer.subscription.updated': 'billing.subscription_updated',
  'customer.subscription.deleted': 'billing.subscription_canceled',
  'invoice.paid': 'billing.invoice_paid',
  'invoice.payment_succeeded': 'billing.invoice_paid',
  'invoice.payment_failed': 'billing.invoice_payment_failed',
};

/** The CloudEvents 1.0 envelope of every outbound delivery. */
export const WebhookEnvelope = z
  .object({
    specversion: z.literal('1.0').meta({ description: 'CloudEvents specification version.' }),
    id: z.string().regex(/^evt_/).meta({ description: 'Stable event id (`evt_`); the de-duplication key. Replays keep it.' }),
    source: z.string().meta({ description: 'URL of the emitting entity.' }),
    type: z.string().meta({ description: 'Event type, e.g. `tenant.created`.' }),
    datacontenttype: z.literal('application/json').meta({ description: 'Media type of `data`.' }),
    time: z.iso.datetime().meta({ description: 'ISO 8601 UTC with milliseconds.' }),
    subject: z.string().meta({ description: 'Id of the entity the event is about.' }),
    tenantid: z.string().meta({ description: 'Id of the tenant the event belongs to (CloudEvents extension attribute).' }),
    data: z.record(z.string(), z.unknown()).meta({ description: 'The record the event is about, as the matching GET returns it.' }),
  })
  .meta({
    id: 'WebhookEventEnvelope',
    examples: [
      {
        specversion: '1.0',
        id: 'evt_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        source: 'https://api.svc.example/v1/operator/tenants/ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        type: 'tenant.created',
        datacontenttype: 'application/json',
        time: '2026-11-22T09:30:00.000Z',
        subject: 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        tenantid: 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
        data: { tenant_id: 'ten_01JD3Z8W2M6Q4X9V7K5T1B0N3R', display_name: 'Acme Bank', plan: 'growth', region: 'eu' },
      },
    ],
  });
export type WebhookEnvelope = z.infer<typeof WebhookEnvelope>;

/** Outbound request headers, exactly as the specification names them. */
export const WEBHOOK_HEADERS = {
  signature: 'x-svc-signature',
  event: 'x-svc-event',
  tenant: 'x-svc-tenant',
  attempt: 'x-svc-delivery-attempt',
  userAgent: 'Svc-Webhooks/1.0',
} as const;

/** Delay before attempts 2 to 5, in milliseconds (DESIGN.md); after the fifth failure: dead-letter queue. */
export const WEBHOOK_RETRY_SCHEDULE_MS = [1_000, 5_000, 30_000, 300_000] as const;
export const WEBHOOK_MAX_ATTEMPTS = 5;
export const WEBHOOK_ATTEMPT_BUDGET_MS = 30_000;
export { WEBHOOK_SIGNATURE_TOLERANCE_SECONDS } from '../wire.ts';

type Json = Record<string, unknown>;

/** The OpenAPI tag of the webhook routes and of the `webhooks` section. */
export const WEBHOOKS_TAG = {
  name: 'webhooks',
  description:
    "Outbound webhooks: subscriptions, deliveries with every attempt, inbound secrets of the webhook worker, and the operators' dead-letter queue. Open to every tier.",
};

/**
 * The `webhooks` section of the OpenAPI 3.1 document: one entry per registered type, its body the
 * envelope with `type` fixed and `data` its schema. `convert` is the document's zod converter.
 */
export function webhookOpenApi(convert: (schema: unknown, io: 'input' | 'output') => Json): Json {
  convert(WebhookEnvelope, 'output');
  const headers = [
    ['x-svc-signature', '`t=<unix seconds>,v1=<lowercase hex HMAC-SHA256 of "<t>.<raw body>">`; several `v1` during a secret rotation.'],
    ['x-svc-event', 'The event type.'],
    ['x-svc-tenant', 'Tenant the event was emitted for.'],
    ['x-svc-delivery-attempt', 'Attempt number, 1 to 5.'],
    ['user-agent', '`Svc-Webhooks/1.0`.'],
  ] as const;
  const out: Json = {};
  for (const t of REGISTERED) {
    out[t.type] = {
      post: {
        operationId: `webhook.${t.type}`,
        summary: t.summary,
        description:
          'Delivered as a CloudEvents 1.0 envelope, signed, at least once (deduplicate by `id`), with up to 5 attempts (+1 s, +5 s, +30 s, +5 min), then the dead-letter queue. Answer 2xx within 30 s.',
        tags: ['webhooks'],
        // The receiver authenticates the request by the signature header, not by a scheme of ours.
        security: [],
        parameters: headers.map(([name, description]) => ({
          name,
          in: 'header',
          required: true,
          description,
          schema: name === 'x-svc-delivery-attempt' ? { type: 'integer', minimum: 1, maximum: 5 } : { type: 'string' },
        })),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                allOf: [
                  { $ref: '#/components/schemas/WebhookEventEnvelope' },
                  { type: 'object', properties: { type: { const: t.type }, data: convert(t.data, 'output') } },
                ],
              },
            },
          },
        },
        responses: {
          '200': { description: 'Received; any 2xx acknowledges the delivery.' },
          '400': { description: 'Any non-2xx answer, time-out or network error is retried.' },
        },
      },
    };
  }
  return out;
}
