import { z } from 'zod';
import { Timestamp } from '../../shared/common.ts';
import { EXAMPLE_AT, EXAMPLE_KEY, exampleId, objectField } from '../../shared/records.ts';
import { LabelId, LabelKey, LabelValue, type METADATA_RESOURCE_TYPES, ResourceId, ResourceType } from './fields.ts';

/** The metadata rail's records, request bodies and their examples (index.ts describes the rail). */

export type MetadataResourceType = (typeof METADATA_RESOURCE_TYPES)[number];

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
