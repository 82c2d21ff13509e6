import { ALL31, withPreset } from './shared.ts';

export const svcTrainerReporting = withPreset({
  slug: 'svc-trainer-reporting',
  name: 'SvcTrainerReporting',
  title: 'Trainer reporting',
  purpose:
    'Composes the trainer report: the curriculum, completion per module across the cohort, and the attestations of training credit with their certificates, as a draft.',
  allowedTypes: ['trainer'],
  defaultType: 'trainer',
  blocks: null,
  engagement: false,
  catalogues: ALL31,
});
