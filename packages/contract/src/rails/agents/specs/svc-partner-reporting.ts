import { ALL31, withEngagementPreset } from './shared.ts';

export const svcPartnerReporting = withEngagementPreset({
  slug: 'svc-partner-reporting',
  name: 'SvcPartnerReporting',
  title: 'Partner-program reporting',
  purpose:
    'Composes the partner-program report: client rollups per system, the partner’s revenue share per engagement, joint-customer status and the white-label evidence pack list; never publishes.',
  allowedTypes: ['partner-program'],
  defaultType: 'partner-program',
  blocks: null,
  engagement: true,
  catalogues: ALL31,
});
