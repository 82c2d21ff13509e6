import { ALL31, withPreset } from './shared.ts';

export const svcReporting = withPreset({
  slug: 'svc-reporting',
  name: 'SvcReporting',
  title: 'Stakeholder reporting',
  purpose:
    'Composes a stakeholder-shaped report (regulator, board, Shariah board, audit committee, partner, investor, customer or internal) from the tenant’s records; never publishes, always returns a draft with its recommended reviewers.',
  allowedTypes: ['regulator', 'board', 'shariah-board', 'audit-committee', 'partner', 'investor', 'customer', 'internal'],
  defaultType: 'board',
  blocks: null,
  engagement: false,
  catalogues: ALL31,
});
