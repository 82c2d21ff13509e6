/**
 * The whistleblower rail (`/v1/whistleblower`, enterprise), Directive (EU) 2019/1937: reports
 * received through the tenant's public intake (no account, no token: the reporter gets an access
 * code once and follows up with it) or recorded by the tenant from another channel; the
 * acknowledgement (7 days) and feedback (3 months) clocks of Art. 9(1)(b) and (f), computed from
 * the report's dates with their source; triage, investigations and measures protecting the
 * reporter against retaliation. The reporter's identity, when given, is kept sealed and is
 * returned by no route to any role.
 */

export { WHISTLEBLOWER_CATEGORIES, WHISTLEBLOWER_REPORT_STATES } from './fields.ts';
export * from './routes.ts';
export * from './schemas.ts';
