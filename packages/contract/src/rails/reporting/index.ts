/**
 * The reporting rail (`/v1/reports`, sandbox): reports of the 15 types the report engine knows
 * (13 for stakeholders, and the documents of a FRIA and a DPIA rendered from their assessment), rendered to PDF in the background (`POST /generate` answers `rendering` at once; a
 * job renders and stores the PDF and its SHA-256), recurring reports on a cron schedule (one
 * report per due time whatever the number of processes), and two signed zip bundles: the audit
 * pack (audit-trail export, evidence index, a report, manifest and its signature) that
 * `svc audit verify` checks offline, and the notified-body pack of a high-risk system.
 * A report is always a draft: the service never publishes it.
 */

export * from './routes.ts';
export * from './schemas.ts';
