import { ALL31, withEngagementPreset } from './shared.ts';

export const svcConsultantReporting = withEngagementPreset({
  slug: 'svc-consultant-reporting',
  name: 'SvcConsultantReporting',
  title: 'Consultant engagement reporting',
  purpose:
    'Composes the consultant report per engagement: the engagement, the open findings the firm works on and the posture it reads, as a draft.',
  allowedTypes: ['consultant'],
  defaultType: 'consultant',
  blocks: null,
  engagement: true,
  catalogues: ALL31,
});
