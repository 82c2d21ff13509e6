import { z } from 'zod';
import { ALL31, DataLevel, exampleId } from './shared.ts';
import { agentSpec } from './spec.ts';

const FROM = { description: 'Id of the store (`dst_...`) or sub-processor (`sbp_...`) the data leaves.' };
const TO = { description: 'Id of the store or sub-processor the data reaches.' };
/** The two ends of a flow in the answer. */
const From = z.string().meta(FROM);
const To = z.string().meta(TO);
const dataMapperExample = {
  homeRegion: 'eu',
  stores: 1,
  hotspots: [
    {
      rank: 1,
      storeId: exampleId('dst'),
      name: 'Customer CRM',
      region: 'eu',
      level: 'confidential',
      categories: ['contact', 'purchase-history'],
      volume: 'medium',
      subjectTypes: ['customer', 'prospect'],
      risk: 12,
    },
  ],
  edges: [],
  crossBorder: [],
  concentration: [{ category: 'contact', stores: 1, storeIds: [exampleId('dst')] }],
};
export const dataMapper = agentSpec({
  slug: 'data-mapper',
  title: 'Data mapper',
  purpose:
    'Builds the data-concentration and flow map of the tenant from its declared data stores, its sub-processors and the flows given: hot spots weighted by classification, volume and kinds of subjects, store-to-store edges, and cross-border transfers flagged.',
  group: 'deterministic',
  groupReason: 'The map and its weights follow from the declared stores and flows by fixed rules.',
  catalogues: ALL31,
  input: z
    .strictObject({
      stores: z
        .array(
          z.strictObject({
            storeId: z.string().min(1).meta({ description: 'Id of a declared data store (`dst_...`).' }),
            region: z
              .string()
              .min(2)
              .max(20)
              .optional()
              .meta({ description: 'Where the store is hosted (`eu`, `us`, `eu/de`); the tenant’s region when absent.' }),
            volume: z
              .enum(['low', 'medium', 'high'])
              .optional()
              .meta({ description: 'How many records it holds, roughly; by the kind of store when absent.' }),
          }),
        )
        .max(200)
        .optional()
        .meta({ description: 'Facts about declared stores that the store records do not carry.' }),
      flows: z
        .array(
          z.strictObject({
            from: z.string().min(1).meta(FROM),
            to: z.string().min(1).meta(TO),
            categories: z
              .array(z.string())
              .max(50)
              .optional()
              .meta({ description: 'Categories that flow; those both ends share when absent.' }),
          }),
        )
        .max(500)
        .optional()
        .meta({ description: 'Declared flows between stores and sub-processors.' }),
    })
    .meta({
      id: 'AgentDataMapperInput',
      examples: [{}, { flows: [{ from: exampleId('dst'), to: exampleId('sbp') }] }],
    }),
  output: z
    .object({
      homeRegion: z.string().meta({ description: 'Region of the tenant; stores with no region given are placed there.' }),
      stores: z.int().meta({ description: 'Declared data stores read.' }),
      hotspots: z
        .array(
          z.object({
            rank: z.int().meta({ description: 'Position by risk weight, 1 for the highest.' }),
            storeId: z.string().meta({ description: 'Id of the declared data store (`dst_...`).' }),
            name: z.string().meta({ description: 'Name of the data store as declared.' }),
            region: z
              .string()
              .meta({ description: 'Region where the store is hosted: the one given in the input, else the tenant’s home region.' }),
            level: DataLevel.meta({ description: 'Classification of the most sensitive category the store holds.' }),
            categories: z.array(z.string()).meta({ description: 'Data categories the store holds, sorted.' }),
            volume: z.enum(['low', 'medium', 'high']).meta({
              description:
                'Rough number of records the store holds: as given in the input, else by the rules’ default for its kind of store.',
            }),
            subjectTypes: z
              .array(z.string())
              .meta({ description: 'Kinds of data subject whose data the store holds (`customer`, `employee`), sorted.' }),
            risk: z.number().meta({ description: 'Level weight x volume weight x subject weight, by the rules.' }),
          }),
        )
        .meta({ description: 'Stores ranked by risk weight, highest first.' }),
      edges: z
        .array(
          z.object({
            from: From,
            to: To,
            origin: z.enum(['declared', 'inferred']).meta({
              description:
                '`declared` in the input, or `inferred` by the kind rules (a backup or warehouse fed by stores sharing categories).',
            }),
            categories: z.array(z.string()).meta({
              description:
                'Data categories that flow, sorted: those given for a declared flow (else the source’s categories the destination store also holds), or those both stores share for an inferred one.',
            }),
            fromRegion: z
              .string()
              .meta({ description: 'Region of the source: the store’s region, the sub-processor’s region, or the tenant’s home region.' }),
            toRegion: z.string().meta({
              description: 'Region of the destination: the store’s region, the sub-processor’s region, or the tenant’s home region.',
            }),
            crossBorder: z.boolean().meta({
              description:
                'Whether the two regions lie in different jurisdictions (their first segment: `eu/de` and `eu/fr` do not cross).',
            }),
          }),
        )
        .meta({ description: 'Store-to-store (and store-to-sub-processor) flow edges, sorted.' }),
      crossBorder: z
        .array(
          z.object({
            from: From,
            to: To,
            fromRegion: z.string().meta({ description: 'Region of the source, whose jurisdiction’s law governs the transfer.' }),
            toRegion: z.string().meta({ description: 'Region of the destination, in another jurisdiction.' }),
            mechanism: z.string().meta({ description: 'The transfer mechanism the rules require for the destination.' }),
          }),
        )
        .meta({ description: 'Edges that leave the jurisdiction of their origin, with the transfer mechanism needed.' }),
      concentration: z
        .array(
          z.object({
            category: z.string().meta({ description: 'The data category.' }),
            stores: z.int().meta({ description: 'Number of declared stores holding the category.' }),
            storeIds: z.array(z.string()).meta({ description: 'Ids of the stores holding the category, in id order.' }),
          }),
        )
        .meta({ description: 'Per data category, the stores holding it, most widespread first.' }),
    })
    .meta({ id: 'AgentDataMapperOutput', examples: [dataMapperExample] }),
});
