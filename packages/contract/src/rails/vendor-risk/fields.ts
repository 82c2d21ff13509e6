import { z } from 'zod';
import { prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the vendor risk rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const EXAMPLE_VENDOR = exampleId('vnd');
export const EXAMPLE_CONTRACT = exampleId('vct');

export const ContractId = prefixedId('vct', EXAMPLE_CONTRACT);

export const CalendarDate = z.iso.date().meta({ description: 'A calendar date, `YYYY-MM-DD`.', examples: ['2026-01-01'] });

// ---------------------------------------------------------------- assessments

export const ASSESSMENT_STATUSES = ['in_progress', 'completed'] as const;
export const EXAMPLE_DOMAIN_SCORES = { security: 80, privacy: 60 };

// ---------------------------------------------------------------- contracts

export const CONTRACT_STATUSES = ['in_force', 'terminated'] as const;

/** The example contract as agreed: a year of hosting that renews by itself unless notice is given 90 days before its end. */
export const EXAMPLE_CONTRACT_REQUEST = {
  vendorId: EXAMPLE_VENDOR,
  title: 'Hosting master services agreement',
  startDate: '2026-01-01',
  endDate: '2026-12-31',
  autoRenew: true,
  renewalTermMonths: 12,
  noticePeriodDays: 90,
  value: 120000,
  currency: 'EUR',
};

// ---------------------------------------------------------------- monitoring

export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const EXAMPLE_OCCURRED_AT = '2026-11-20T08:00:00.000Z';
