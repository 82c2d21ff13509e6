import { z } from 'zod';
import { listOf, PaginationQuery, prefixedId, Timestamp } from '../common.ts';
import { meta } from '../meta.ts';
import { railRouter, resource } from '../resource.ts';
import { EXAMPLE_AT, EXAMPLE_KEY, exampleId, objectField } from '../shared/records.ts';
import { eventType } from '../webhook-events.ts';

/**
 * The metadata rail: `key=value` labels a tenant attaches to its own records of any kind, the
 * counts of labels per key and per value (facets), a search over labels and the records that
 * carry a label (items).
 */

/**
 * The kinds of record a label may be attached to: the platform's records a tenant owns. Each is
 * checked to exist for the tenant before a label is attached (`tenant` is the tenant itself).
 */
export const METADATA_RESOURCE_TYPES = [
  'tenant',
  'api_key',
  'assessment',
  'evidence',
  'attestation',
  'obligation',
  'framework_activation',
  'webhook_subscription',
  'drift_finding',
] as const;
export type MetadataResourceType = (typeof METADATA_RESOURCE_TYPES)[number];

const ResourceType = z.enum(METADATA_RESOURCE_TYPES).meta({
  description:
    'Kind of record the label is on: `tenant` (the tenant itself), `api_key`, `assessment`, `evidence`, `attestation`, `obligation`, `framework_activation`, `webhook_subscription` or `drift_finding`.',
  examples: ['assessment'],
});

const ResourceId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
  .meta({ description: 'Id of the labelled record (`asm_...`, `evd_...`, or the `ten_` id for the tenant itself).' });

/** Letters, digits and `. _ - /`, starting with a letter or digit: `team`, `app.kubernetes.io/name`. */
export const METADATA_LABEL_KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;
/** Printable text: letters, digits, punctuation, symbols and spaces (no control characters). */
const LABEL_VALUE_PATTERN = /^[\p{L}\p{M}\p{N}\p{P}\p{S}\p{Zs}]+$/u;

const LabelKey = z
  .string()
  .min(1)
  .max(63)
  .regex(METADATA_LABEL_KEY_PATTERN)
  .meta({ description: 'Label key: 1 to 63 letters, digits, `.`, `_`, `-` or `/`, starting with a letter or digit; case-sensitive.' });

const LabelValue = z
  .string()
  .min(1)
  .max(200)
  .regex(LABEL_VALUE_PATTERN)
  .meta({ description: 'Label value: 1 to 200 printable characters (no control characters); case-sensitive.' });

const LabelId = prefixedId('lbl', exampleId('lbl'));

const objectOf = <const N extends string>(name: N) => objectField(`svc.metadata.${name}` as `svc.metadata.${N}`, 'svc.metadata.label');

const Key = z.string().meta({ description: 'Label key.' });
const Value = z.string().meta({ description: 'Label value.' });

const LABEL_EXAMPLE = {
  object: 'svc.metadata.label',
  id: exampleId('lbl'),
  resourceType: 'assessment',
  resourceId: exampleId('asm'),
  key: 'team',
  value: 'ai-governance',
  createdBy: EXAMPLE_KEY,
  createdAt: EXAMPLE_AT,
} as const;

export const MetadataLabel = z
  .object({
    object: objectOf('label'),
    id: LabelId,
    resourceType: ResourceType,
    resourceId: z.string().meta({ description: 'Id of the labelled record.' }),
    key: Key,
    value: Value,
    createdBy: z.string().meta({ description: 'Id of the API key (or operator credential) whose request attached the label.' }),
    createdAt: Timestamp.meta({ description: 'When the label was attached: ISO 8601 UTC timestamp with milliseconds.' }),
  })
  .meta({
    id: 'MetadataLabel',
    examples: [LABEL_EXAMPLE],
  });

/** The record and key a label request names. */
const LabelTarget = { resourceType: ResourceType, resourceId: ResourceId, key: LabelKey };
/** A label request's example: the tenant itself, labelled `environment=production`. */
const LABEL_REQUEST_EXAMPLE = { resourceType: 'tenant', resourceId: exampleId('ten'), key: 'environment', value: 'production' };

export const CreateMetadataLabelBody = z
  .strictObject({ ...LabelTarget, value: LabelValue })
  .meta({ id: 'CreateMetadataLabelRequest', examples: [LABEL_REQUEST_EXAMPLE] });

export const MetadataUnlabelBody = z
  .strictObject({
    ...LabelTarget,
    value: LabelValue.optional().meta({
      description: 'Only the label with this value; every label of the key on the record when absent.',
    }),
  })
  .meta({ id: 'MetadataUnlabelRequest', examples: [LABEL_REQUEST_EXAMPLE] });

export const MetadataUnlabelResult = z
  .object({
    object: objectOf('unlabel_result'),
    removed: z.array(MetadataLabel).meta({ description: 'The labels removed by the call; empty when the record had none matching.' }),
  })
  .meta({
    id: 'MetadataUnlabelResult',
    examples: [{ object: 'svc.metadata.unlabel_result', removed: [LABEL_EXAMPLE] }],
  });

const FacetValue = z.object({
  value: z.string().meta({ description: 'A value of the key.' }),
  count: z.int().meta({ description: 'Labels `key=value` in scope (one per labelled record).' }),
});

export const MetadataFacets = z
  .object({
    object: objectOf('facets'),
    resourceType: ResourceType.nullable().meta({ description: 'The kind of record the counts are limited to; null for every kind.' }),
    total: z.int().meta({ description: 'Labels in scope.' }),
    resources: z.int().meta({ description: 'Distinct records carrying at least one label in scope.' }),
    keys: z
      .array(
        z.object({
          key: Key,
          count: z.int().meta({ description: 'Labels with this key in scope.' }),
          resources: z.int().meta({ description: 'Distinct records carrying the key.' }),
          values: z.array(FacetValue).meta({ description: 'Counts per value of the key, largest first, then by value.' }),
        }),
      )
      .meta({ description: 'Counts per key, largest first, then by key.' }),
    resourceTypes: z
      .array(
        z.object({
          resourceType: ResourceType,
          count: z.int().meta({ description: 'Labels in scope on records of this kind.' }),
        }),
      )
      .meta({ description: 'Counts per kind of record, largest first, then by kind.' }),
  })
  .meta({
    id: 'MetadataFacets',
    examples: [
      {
        object: 'svc.metadata.facets',
        resourceType: null,
        total: 3,
        resources: 2,
        keys: [
          {
            key: 'team',
            count: 2,
            resources: 2,
            values: [
              { value: 'ai-governance', count: 1 },
              { value: 'risk', count: 1 },
            ],
          },
          { key: 'environment', count: 1, resources: 1, values: [{ value: 'production', count: 1 }] },
        ],
        resourceTypes: [
          { resourceType: 'assessment', count: 2 },
          { resourceType: 'evidence', count: 1 },
        ],
      },
    ],
  });

export const MetadataItem = z
  .object({
    object: objectOf('item'),
    resourceType: ResourceType,
    resourceId: z.string().meta({ description: 'Id of the record.' }),
    labels: z
      .array(
        z.object({
          id: z.string().meta({ description: 'Id of the label (`lbl_...`).' }),
          key: Key,
          value: Value,
        }),
      )
      .meta({ description: 'Every label of the record, by key then value (not only the matching ones).' }),
  })
  .meta({
    id: 'MetadataItem',
    examples: [
      {
        object: 'svc.metadata.item',
        resourceType: 'assessment',
        resourceId: exampleId('asm'),
        labels: [
          { id: exampleId('lbl'), key: 'team', value: 'ai-governance' },
          { id: 'lbl_01JD3Z8W2M6Q4X9V7K5T1B0N3S', key: 'environment', value: 'production' },
        ],
      },
    ],
  });

const ResourceTypeFilter = ResourceType.optional();
/** A text a search matches labels against: 1 to 200 characters. */
const SearchText = (description: string, example: string) =>
  z
    .string()
    .min(1)
    .max(200)
    .optional()
    .meta({ description, examples: [example] });

/**
 * The labels' list, from the kit. Adding a label stays a route of its own (idempotent on the
 * record, key and value: 201 the first time, 200 with the same label after), as do the removals
 * (a DELETE, and the bulk unlabel).
 */
export const metadataLabels = resource({
  rail: 'metadata',
  path: 'label',
  name: 'label',
  label: { one: 'label', many: 'labels' },
  idPrefix: 'lbl',
  record: MetadataLabel,
  get: false,
  filters: {
    resourceType: ResourceTypeFilter.meta({ description: 'Only labels on records of this kind.' }),
    resourceId: ResourceId.optional().meta({ description: 'Only labels on the record with this id.' }),
    key: LabelKey.optional().meta({ description: 'Only labels with this key.' }),
  },
  notes: { list: '`resourceType` and `resourceId` give the labels of one record; `key` keeps one key.' },
  setup: [
    {
      method: 'POST',
      path: '/v1/webhook-subscriptions',
      body: { url: 'https://hooks.example.com/labelled/{{unique}}', eventTypes: ['label.added'] },
      as: 'subscription',
    },
    {
      method: 'POST',
      path: '/v1/metadata/label',
      body: { resourceType: 'webhook_subscription', resourceId: '{{subscription.id}}', key: 'team', value: 'ai-governance' },
    },
  ],
});

const read = meta({ auth: 'tenant', rail: 'metadata', permission: 'metadata:read', mutating: false });
/** The policy of a label change, audited as `audit`. */
const write = <const A extends string>(audit: A) =>
  meta({ auth: 'tenant', rail: 'metadata', permission: 'metadata:write', mutating: true, audit });
const IdParams = z.object({ id: LabelId });

export const metadataRouter = railRouter('metadata', {
  label: {
    // The list is the kit's; adding (201 or 200), removing (DELETE) and unlabelling stay hand-written.
    list: metadataLabels.routes.list,
    create: {
      method: 'POST',
      path: '/label',
      body: CreateMetadataLabelBody,
      responses: { 200: MetadataLabel, 201: MetadataLabel },
      summary: 'Label a record',
      description:
        "Attaches the label `key=value` to a record of the tenant. The record must exist for the tenant: an unknown id, or another tenant's, is 404 `not_found`; an unknown `resourceType` is 422. Idempotent on (record, key, value): the first call returns 201 with the new label, later calls 200 with the same label and record nothing. A record may carry several values of one key. Needs `metadata:write`; recorded in the audit trail as `label.added` and emitted as the webhook event `label.added`.",
      metadata: write('label.added'),
    },
    remove: {
      method: 'DELETE',
      path: '/label/:id',
      pathParams: IdParams,
      responses: { 200: MetadataLabel },
      summary: 'Remove a label',
      description:
        'Removes the label with this `lbl_` id and returns it as it was. A label of another tenant, or one that does not exist (or was already removed), is 404 `not_found`. Needs `metadata:write`; recorded in the audit trail as `label.removed` and emitted as the webhook event `label.removed`.',
      metadata: write('label.removed'),
    },
    unlabel: {
      method: 'POST',
      path: '/label/unlabel',
      body: MetadataUnlabelBody,
      responses: { 200: MetadataUnlabelResult },
      summary: 'Remove labels from a record by key',
      description:
        'Removes from a record of the tenant its labels of `key` (only `key=value` when `value` is given) and returns them. The record must exist for the tenant (404 otherwise); a record without a matching label gives an empty `removed`. Needs `metadata:write`; each removal is recorded in the audit trail as `label.removed` and emitted as the webhook event `label.removed`.',
      metadata: write('label.removed'),
    },
  },
  facets: {
    method: 'GET',
    path: '/facets',
    query: z.object({
      resourceType: ResourceTypeFilter.meta({ description: 'Count only labels on records of this kind.' }),
      key: LabelKey.optional().meta({ description: 'Count only labels with this key.' }),
    }),
    responses: { 200: MetadataFacets },
    summary: 'Count labels per key and value',
    description:
      "Counts the tenant's labels: in all, per key (with the distinct records carrying it), per `key=value`, and per kind of record. `resourceType` limits the counts to one kind of record, `key` to one key. Another tenant's labels are never counted. Needs `metadata:read`.",
    metadata: read,
  },
  search: {
    method: 'GET',
    path: '/search',
    query: PaginationQuery.extend({
      key: LabelKey.optional().meta({ description: 'Only labels with exactly this key.' }),
      valuePrefix: SearchText('Only labels whose value starts with this text (case-insensitive).', 'ai-'),
      q: SearchText('Only labels whose key or value contains this text (case-insensitive).', 'govern'),
      resourceType: ResourceTypeFilter.meta({ description: 'Only labels on records of this kind.' }),
    }),
    responses: { 200: listOf(MetadataLabel) },
    summary: 'Search labels',
    description:
      "Returns the tenant's labels matching every criterion given (AND): exact `key`, value starting with `valuePrefix`, `q` contained in the key or the value (both case-insensitive, `%` and `_` taken literally), kind of record. Newest first, paginated by `limit` and `cursor`. Needs `metadata:read`.",
    metadata: read,
  },
  items: {
    method: 'GET',
    path: '/items',
    query: PaginationQuery.extend({
      key: LabelKey.meta({ description: 'The records carrying a label with this key (required).', examples: ['team'] }),
      value: LabelValue.optional().meta({ description: 'Only the records carrying exactly `key=value`.', examples: ['ai-governance'] }),
      resourceType: ResourceTypeFilter.meta({ description: 'Only records of this kind.' }),
    }),
    responses: { 200: listOf(MetadataItem) },
    summary: 'List the records carrying a label',
    description:
      'Returns the records of the tenant that carry a label `key` (or `key=value`), each once with all its labels, ordered by kind then id, paginated by `limit` and `cursor`. `resourceType` keeps one kind of record. Needs `metadata:read`.',
    metadata: read,
  },
});

/** Event types the metadata rail emits. */
export const metadataEvents: ReturnType<typeof eventType>[] = [
  eventType('label.added', 'A label was attached to a record.', MetadataLabel),
  eventType('label.removed', 'A label was removed from a record.', MetadataLabel),
];
