import { ALL31, withEngagementPreset } from './shared.ts';

export const alt1PartnerReporting = withEngagementPreset({
  slug: 'alt1-partner-reporting',
  name: 'Alt1PartnerReporting',
  title: 'Partner reporting (partner-facing)',
  purpose:
    'The partner-facing surface of partner reporting: client rollups, joint-customer status and the white-label evidence pack of the partner or partner-program report, without the revenue figures.',
  allowedTypes: ['partner-program', 'partner'],
  defaultType: 'partner-program',
  blocks: ['clientRollups', 'jointCustomers', 'evidencePack'],
  engagement: true,
  catalogues: ALL31,
});
