/**
 * The audit_engine rail (`/v1/audit-engine`, enterprise): automated audits of a framework the
 * tenant has activated. `POST /run` pins the content (the framework's dictionary version, the
 * tenant's taxonomy bundle hash, the rule set) and answers 202; a background job evaluates every
 * activated control in scope against the tenant's evidence, obligations and attestations, writes
 * one finding per failed check and completes the run. A completed run can be replayed (the stored
 * inputs re-evaluated, the findings compared by hash), signed off by an accountable owner and then
 * attested, which closes it. Schedules start one run per due time of a cron expression.
 *
 * Scope strings: `all` (every control of the framework), `family:<prefix>` (controls whose id
 * starts with `<prefix>-`, e.g. `family:AIA-RMS`), `clause:<ref>` (controls citing the clause or
 * one of its sub-clauses, e.g. `clause:art-9`), `system:<id>` (every control, counting only the
 * evidence recorded for that AI system). A bare value is read as a family, then as a clause.
 */

export { AUDIT_CHECKS, AUDIT_RUN_STATUSES, AUDIT_SEVERITIES } from './fields.ts';
export * from './routes.ts';
export * from './schemas.ts';
