import { EXAMPLE_OTHER_USER, EXAMPLE_USER, prefixedId } from '../../shared/common.ts';
import { exampleId } from '../../shared/records.ts';

/**
 * What the governance rail's record schemas and its routes share: ids, statuses and example values.
 * The rail's own building blocks, not exported from the package (index.ts re-exports what is public).
 */

export const EXAMPLE_ROLE = exampleId('rol');
export const EXAMPLE_CHAIN = exampleId('apc');
export const EXAMPLE_MEETING = exampleId('gbm');
export const EXAMPLE_SUBJECT = 'Vendor contract: Acme Analytics';

export const ChainRef = prefixedId('apc', EXAMPLE_CHAIN);
export const MeetingId = prefixedId('gbm', EXAMPLE_MEETING);

// ---------------------------------------------------------------- decision rights

export const DECISION_RIGHT_STATUSES = ['active', 'retired'] as const;

/** The example request: a role signs vendor contracts up to 50,000 EUR. */
export const EXAMPLE_DECISION_RIGHT_REQUEST = {
  decisionType: 'vendor_contract',
  description: 'Signs vendor contracts up to 50,000 EUR.',
  roleId: EXAMPLE_ROLE,
  maxAmountEur: 50000,
};

// ---------------------------------------------------------------- approvals

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;

// ---------------------------------------------------------------- board meetings

export const MEETING_STATUSES = ['scheduled', 'held', 'minutes_approved', 'canceled'] as const;

// ---------------------------------------------------------------- delegations

export const DELEGATION_STATUSES = ['active', 'revoked'] as const;

/** The example request: one person lets another take their approval steps for three weeks. */
export const EXAMPLE_DELEGATION_REQUEST = {
  fromPersonId: EXAMPLE_USER,
  toPersonId: EXAMPLE_OTHER_USER,
  scope: 'approvals',
  validFrom: '2026-12-01T00:00:00.000Z',
  validUntil: '2026-12-24T00:00:00.000Z',
};

// ---------------------------------------------------------------- conflicts of interest

export const CONFLICT_STATUSES = ['open', 'managed', 'closed'] as const;
export const EXAMPLE_CONFLICT_REQUEST = {
  personId: EXAMPLE_USER,
  subject: EXAMPLE_SUBJECT,
  description: 'Spouse is a director of Acme Analytics.',
};
