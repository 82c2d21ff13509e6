import { ALL31, withPreset } from './shared.ts';

export const alt1Reporting = withPreset({
  slug: 'alt1-reporting',
  name: 'Alt1Reporting',
  title: 'Engineer and executive reporting',
  purpose:
    'Composes the engineer report (controls and evidence gaps per system, technical tasks) or the executive one-page summary of key indicators from the tenant’s records, as a draft.',
  allowedTypes: ['engineer', 'executive'],
  defaultType: 'executive',
  blocks: null,
  engagement: false,
  catalogues: ALL31,
});
