import { ALL_TYPES, ALL31, withEngagementPreset } from './shared.ts';

export const alt2Reporting = withEngagementPreset({
  slug: 'alt2-reporting',
  name: 'Alt2Reporting',
  title: 'Report composer (all types)',
  purpose: 'Composes any of the 13 stakeholder report types from the tenant’s records, as a draft with its recommended reviewers.',
  allowedTypes: ALL_TYPES,
  defaultType: 'internal',
  blocks: null,
  engagement: true,
  catalogues: ALL31,
});
