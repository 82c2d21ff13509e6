import { ALL31, withPreset } from './shared.ts';

export const alt1TrainerReporting = withPreset({
  slug: 'alt1-trainer-reporting',
  name: 'Alt1TrainerReporting',
  title: 'Trainer reporting (credit attestations)',
  purpose:
    'The attestation surface of trainer reporting: completion per module and the attestations of training credit, without the curriculum.',
  allowedTypes: ['trainer'],
  defaultType: 'trainer',
  blocks: ['trainingCompletion', 'trainingAttestations'],
  engagement: false,
  catalogues: ALL31,
});
