import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the gpai summary rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const EXAMPLE_SUMMARY = exampleId('gps');

export const GPAI_SOURCE_TYPES = [
  'public_dataset',
  'private_licensed',
  'private_other',
  'crawled',
  'user_data',
  'synthetic',
  'other',
] as const;

export const SummaryId = prefixedId('gps', EXAMPLE_SUMMARY);
export const SourceType = z.enum(GPAI_SOURCE_TYPES).meta({
  description:
    'Category of the template’s section 2: `public_dataset` (2.1), `private_licensed` (2.2, licensed from rightsholders), `private_other` (2.2, other private datasets from third parties), `crawled` (2.3, crawled and scraped online), `user_data` (2.4), `synthetic` (2.5), `other` (2.6).',
});

// ---------------------------------------------------------------- summaries

/** The example summary's model and provider, and what it says of the training data. */
export const PROVIDER_EXAMPLE = { name: 'Acme AI SAS', contact: 'ai-office@acme.example' };
export const MODEL_EXAMPLE = { modelName: 'Aurora', modelVersion: '2.1', provider: PROVIDER_EXAMPLE };
export const TRAINING_DATA_EXAMPLE = {
  modalities: ['text'],
  trainingDataSize: [{ modality: 'text', sizeRange: '1 billion to 10 trillion tokens' }],
};
export const CREATE_SUMMARY_EXAMPLE = { ...MODEL_EXAMPLE, ...TRAINING_DATA_EXAMPLE };
