/**
 * The red_team rail (`/v1/red-team`, growth): a corpus of adversarial probes in nine categories
 * (data: `content/red-team/corpus.json`, each probe with a deterministic pass/fail detector), the
 * HTTP endpoints of the models under test (targets), runs that send every selected probe to a
 * target and store one result per probe, and the robustness score computed from those results
 * (pass rate per category weighted by severity) with the regression against the target's
 * previous run. A run is queued by `POST /runs` and executed, in the request, by
 * `POST /runs/{id}/execute`: the corpus is small (tens of probes, bounded timeouts).
 */

export { RED_TEAM_CATEGORIES, RED_TEAM_SEVERITIES } from './fields.ts';
export * from './routes.ts';
export * from './schemas.ts';
