import { z } from 'zod';
import { ALL31, DataLevel } from './shared.ts';
import { agentSpec } from './spec.ts';

const dataClassifierExample = {
  jurisdiction: 'eu',
  fields: [
    {
      name: 'diagnosis_code',
      level: 'regulated',
      categories: ['health'],
      matched: ['health: name matches "diagnos"'],
      specialCategory: true,
      specialCategoryBasis: 'GDPR Art. 9(1)',
      retentionFloorDays: 3650,
      lawfulBasis: 'GDPR Art. 6(1)(c) legal obligation with an Art. 9(2)(h) condition (health or social care)',
    },
  ],
  overall: {
    level: 'regulated',
    specialCategory: true,
    retentionFloorDays: 3650,
    lawfulBasis: 'GDPR Art. 6(1)(c) legal obligation with an Art. 9(2)(h) condition (health or social care)',
    counts: { public: 0, internal: 0, confidential: 0, restricted: 0, regulated: 1 },
  },
  handling: ['Encrypt at rest and in transit; access on a need-to-know basis with logging.'],
};
const ClassifiedField = z.object({
  name: z.string().meta({ description: 'Name of the field (or `dataset` for a dataset description).' }),
  level: DataLevel.meta({ description: 'Classification level: public, internal, confidential, restricted or regulated.' }),
  categories: z.array(z.string()).meta({ description: 'Data categories the rules recognised in the field.' }),
  matched: z.array(z.string()).meta({ description: 'Why: each rule that matched and on what.' }),
  specialCategory: z.boolean().meta({ description: 'Whether the field holds special-category data (GDPR Art. 9).' }),
  specialCategoryBasis: z.string().nullable().meta({ description: 'The provision that makes it special, null when it is not.' }),
  retentionFloorDays: z
    .int()
    .meta({ description: 'Minimum retention the rules attach to the most demanding category, in days (0: none).' }),
  lawfulBasis: z.string().meta({ description: 'Recommended lawful basis for processing the field.' }),
});
export const dataClassifier = agentSpec({
  slug: 'data-classifier',
  title: 'Data classifier',
  purpose:
    'Applies the five-level data-classification dictionary (public, internal, confidential, restricted, regulated) to fields or a dataset description, flags GDPR Art. 9 special-category data and recommends a retention floor and a lawful basis per field and overall.',
  group: 'deterministic',
  groupReason: 'The level of each field is the consequence of the dictionary’s pattern rules.',
  catalogues: ALL31,
  input: z
    .strictObject({
      fields: z
        .array(
          z.strictObject({
            name: z.string().min(1).max(200).meta({ description: 'Name of the field (`email`, `date_of_birth`).' }),
            description: z.string().max(2000).optional().meta({ description: 'What the field holds, in words.' }),
            sample: z.string().max(500).optional().meta({ description: 'A sample value, used for pattern matching only.' }),
          }),
        )
        .min(1)
        .max(500)
        .optional()
        .meta({ description: 'The fields to classify; either this or `datasetDescription`.' }),
      datasetDescription: z
        .string()
        .min(1)
        .max(5000)
        .optional()
        .meta({ description: 'A description of a whole dataset, classified as one field named `dataset`.' }),
      jurisdiction: z
        .string()
        .min(2)
        .max(10)
        .optional()
        .meta({ description: 'Jurisdiction whose rules apply (`eu`, `gb`, `us-ca`, `br`, `in`); `eu` when absent.' }),
    })
    .meta({
      id: 'AgentDataClassifierInput',
      examples: [
        {
          fields: [
            { name: 'email', sample: 'ana@example.com' },
            { name: 'diagnosis_code', description: 'ICD-10 diagnosis of the patient' },
          ],
        },
        { datasetDescription: 'Payroll export with salaries, bank account numbers and trade union membership', jurisdiction: 'eu' },
      ],
    }),
  output: z
    .object({
      jurisdiction: z.string().meta({ description: 'Jurisdiction whose rules were applied.' }),
      fields: z.array(ClassifiedField).meta({ description: 'Each field with its level, categories and recommendations, in input order.' }),
      overall: z
        .object({
          level: DataLevel.meta({ description: 'The highest level of any field.' }),
          specialCategory: z.boolean().meta({ description: 'Whether any field holds special-category data.' }),
          retentionFloorDays: z.int().meta({ description: 'The longest retention floor of any field.' }),
          lawfulBasis: z
            .string()
            .meta({ description: 'Lawful basis recommended for the dataset as a whole (that of its highest-level field).' }),
          counts: z
            .object({
              public: z.int().meta({ description: 'Number of fields classified `public`.' }),
              internal: z.int().meta({ description: 'Number of fields classified `internal`.' }),
              confidential: z.int().meta({ description: 'Number of fields classified `confidential`.' }),
              restricted: z.int().meta({ description: 'Number of fields classified `restricted`.' }),
              regulated: z.int().meta({ description: 'Number of fields classified `regulated`.' }),
            })
            .meta({ description: 'Fields per level.' }),
        })
        .meta({ description: 'The dataset as a whole.' }),
      handling: z.array(z.string()).meta({ description: 'Handling requirements of the overall level, from the dictionary.' }),
    })
    .meta({ id: 'AgentDataClassifierOutput', examples: [dataClassifierExample] }),
});
