import { z } from 'zod';
import { del, get, policyOf, post } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';
import { LabelId, LabelKey, LabelValue, ResourceId, ResourceType } from './fields.ts';
import {
  CreateMetadataLabelBody,
  MetadataFacets,
  MetadataItem,
  MetadataLabel,
  MetadataUnlabelBody,
  MetadataUnlabelResult,
} from './schemas.ts';

/** The metadata rail's resources and hand-declared routes, its router and the event types it emits. */

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

const { read, write } = policyOf('metadata');
const IdParams = z.object({ id: LabelId });

export const metadataRouter = railRouter('metadata', {
  label: {
    // The list is the kit's; adding (201 or 200), removing (DELETE) and unlabelling stay hand-written.
    list: metadataLabels.routes.list,
    create: post('/label', { body: CreateMetadataLabelBody }, { 200: MetadataLabel, 201: MetadataLabel }, write('label.added')).doc(
      'Label a record',
      "Attaches the label `key=value` to a record of the tenant. The record must exist for the tenant: an unknown id, or another tenant's, is 404 `not_found`; an unknown `resourceType` is 422. Idempotent on (record, key, value): the first call returns 201 with the new label, later calls 200 with the same label and record nothing. A record may carry several values of one key. Needs `metadata:write`; recorded in the audit trail as `label.added` and emitted as the webhook event `label.added`.",
    ),
    remove: del('/label/:id', { pathParams: IdParams }, MetadataLabel, write('label.removed')).doc(
      'Remove a label',
      'Removes the label with this `lbl_` id and returns it as it was. A label of another tenant, or one that does not exist (or was already removed), is 404 `not_found`. Needs `metadata:write`; recorded in the audit trail as `label.removed` and emitted as the webhook event `label.removed`.',
    ),
    unlabel: post('/label/unlabel', { body: MetadataUnlabelBody }, MetadataUnlabelResult, write('label.removed')).doc(
      'Remove labels from a record by key',
      'Removes from a record of the tenant its labels of `key` (only `key=value` when `value` is given) and returns them. The record must exist for the tenant (404 otherwise); a record without a matching label gives an empty `removed`. Needs `metadata:write`; each removal is recorded in the audit trail as `label.removed` and emitted as the webhook event `label.removed`.',
    ),
  },
  facets: get(
    '/facets',
    {
      query: z.object({
        resourceType: ResourceTypeFilter.meta({ description: 'Count only labels on records of this kind.' }),
        key: LabelKey.optional().meta({ description: 'Count only labels with this key.' }),
      }),
    },
    MetadataFacets,
    read,
  ).doc(
    'Count labels per key and value',
    "Counts the tenant's labels: in all, per key (with the distinct records carrying it), per `key=value`, and per kind of record. `resourceType` limits the counts to one kind of record, `key` to one key. Another tenant's labels are never counted. Needs `metadata:read`.",
  ),
  search: get(
    '/search',
    {
      query: PaginationQuery.extend({
        key: LabelKey.optional().meta({ description: 'Only labels with exactly this key.' }),
        valuePrefix: SearchText('Only labels whose value starts with this text (case-insensitive).', 'ai-'),
        q: SearchText('Only labels whose key or value contains this text (case-insensitive).', 'govern'),
        resourceType: ResourceTypeFilter.meta({ description: 'Only labels on records of this kind.' }),
      }),
    },
    listOf(MetadataLabel),
    read,
  ).doc(
    'Search labels',
    "Returns the tenant's labels matching every criterion given (AND): exact `key`, value starting with `valuePrefix`, `q` contained in the key or the value (both case-insensitive, `%` and `_` taken literally), kind of record. Newest first, paginated by `limit` and `cursor`. Needs `metadata:read`.",
  ),
  items: get(
    '/items',
    {
      query: PaginationQuery.extend({
        key: LabelKey.meta({ description: 'The records carrying a label with this key (required).', examples: ['team'] }),
        value: LabelValue.optional().meta({ description: 'Only the records carrying exactly `key=value`.', examples: ['ai-governance'] }),
        resourceType: ResourceTypeFilter.meta({ description: 'Only records of this kind.' }),
      }),
    },
    listOf(MetadataItem),
    read,
  ).doc(
    'List the records carrying a label',
    'Returns the records of the tenant that carry a label `key` (or `key=value`), each once with all its labels, ordered by kind then id, paginated by `limit` and `cursor`. `resourceType` keeps one kind of record. Needs `metadata:read`.',
  ),
});

/** Event types the metadata rail emits. */
export const metadataEvents: ReturnType<typeof eventType>[] = [
  eventType('label.added', 'A label was attached to a record.', MetadataLabel),
  eventType('label.removed', 'A label was removed from a record.', MetadataLabel),
];
