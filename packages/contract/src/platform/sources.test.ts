import { describe, expect, it } from 'vitest';
import { sourcePathOf, sourceRoutes } from './sources.ts';

const ID = 'xyz_01JD3Z8W2M6Q4X9V7K5T1B0N3R';

describe('the source path of a record', () => {
  it('is the record of a kit resource under its collection, or the collection when no route gets one record', () => {
    expect(sourcePathOf('svc.compliance.assessment', 'asm_1', {})).toBe('/v1/compliance/assessments/asm_1');
    // Labels have a list and a DELETE of one label, no GET of one: the list shows them.
    expect(sourcePathOf('svc.metadata.label', 'lbl_1', {})).toBe('/v1/metadata/label');
  });

  it('is the route that declares itself the source, its parameters filled from the record', () => {
    expect(sourcePathOf('svc.workspace.workspace', 'wks_1', {})).toBe('/v1/workspaces/wks_1');
    expect(sourcePathOf('svc.workspace.team', 'wtm_1', { workspaceId: 'wks_2' })).toBe('/v1/workspaces/wks_2/teams');
    expect(sourcePathOf('svc.governance.board_decision', 'bdc_1', { meetingId: 'bmt_3' })).toBe(
      '/v1/governance/board-meetings/bmt_3/decisions',
    );
    expect(sourcePathOf('svc.policy_authoring.policy_version', 'pvr_1', { policyId: 'pol_4', number: 2 })).toBe(
      '/v1/policies/version/pol_4/2',
    );
    expect(sourcePathOf('svc.frameworks.activation', 'fac_1', { framework: 'eu-ai-act' })).toBe('/v1/frameworks/eu-ai-act');
    expect(sourcePathOf('svc.notifications.teams_channel', 'ntc_1', {})).toBe('/v1/notifications/teams/ntc_1');
    expect(sourcePathOf('svc.taxonomy.bundle_hash', 'ten_1', {})).toBe('/v1/taxonomy/bundle-hash');
  });

  it('names the record itself when a mapped field is missing, and encodes what it puts in the path', () => {
    expect(sourcePathOf('svc.frameworks.activation', 'fac_1', {})).toBe('/v1/frameworks/fac_1');
    expect(sourcePathOf('svc.workspace.principal', 'wpr_1', { workspaceId: 'a/b' })).toBe('/v1/workspaces/a%2Fb/principals');
  });

  it('is undefined for a type no route shows, and for a nested record without its parent', () => {
    expect(sourcePathOf('svc.nowhere.thing', ID, {})).toBeUndefined();
    expect(sourcePathOf('svc.governance.board_decision', 'gdc_1', {})).toBeUndefined();
  });

  it('every declaration is a GET route whose parameters a record fills, one route per type', () => {
    const routes = sourceRoutes();
    // Records the kit declares are their own source; these are the hand-written routes that show a
    // record type (fewer as routes move onto the kit: 14 on 2026-12-01).
    expect(routes.size).toBeGreaterThanOrEqual(10);
    for (const [object, { route, params }] of routes) {
      expect(object).toMatch(/^svc\.[a-z_]+\.[a-z_]+$/);
      expect(route.method).toBe('GET');
      const fields = (route.path.match(/:[A-Za-z_]+/g) ?? []).map((p) => params[p.slice(1)] ?? p.slice(1));
      const path = sourcePathOf(object, 'rid', Object.fromEntries(fields.map((f) => [f, 'v'])));
      expect(path, object).not.toContain(':');
      expect(path?.split('/').length, object).toBe(route.path.split('/').length);
    }
  });
});
