import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

const slugOf = () => `trust-${Math.random().toString(36).slice(2, 10)}`;

async function activate(t: TenantFixture, framework: string): Promise<string[]> {
  const act = await t.call('POST', `/v1/frameworks/${framework}/activate`, { body: {} });
  expect([200, 201]).toContain(act.status);
  const controls = await collectPages<{ id: string }>(t, `/v1/frameworks/${framework}/controls`);
  expect(controls.length).toBeGreaterThan(2);
  return controls.map((c) => c.id);
}

async function addEvidence(t: TenantFixture, controlIds: string[], expiresAt?: string, collectedAt?: string): Promise<string> {
  const res = await t.call('POST', '/v1/compliance/evidence', {
    body: { title: 'Evidence', kind: 'policy', controlIds, ...(expiresAt ? { expiresAt } : {}), ...(collectedAt ? { collectedAt } : {}) },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

describe('trust: posture', () => {
  it('is zero with no activated framework, then the share of controls with unexpired evidence, per framework', async () => {
    const t = await createTenant(ts);
    const empty = await t.call('GET', '/v1/trust/posture');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ object: 'svc.trust.posture', score: 0, controls: 0, evidenced: 0, frameworks: [] });

    const controls = await activate(t, 'eu-ai-act');
    const p0 = (await t.call('GET', '/v1/trust/posture')).body;
    expect(p0.controls).toBe(controls.length);
    expect(p0.evidenced).toBe(0);
    expect(p0.frameworks).toEqual([expect.objectContaining({ framework: 'eu-ai-act', controls: controls.length, evidenced: 0, score: 0 })]);

    await addEvidence(t, [controls[0] as string, controls[1] as string]);
    const p1 = (await t.call('GET', '/v1/trust/posture')).body;
    expect(p1.evidenced).toBe(2);
    expect(p1.score).toBeCloseTo(2 / controls.length, 3);
    expect(p1.frameworks[0]).toMatchObject({ evidenced: 2 });

    // Expired evidence does not count.
    await addEvidence(t, [controls[2] as string], '2025-02-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z');
    const p2 = (await t.call('GET', '/v1/trust/posture')).body;
    expect(p2.evidenced).toBe(2);

    // A second activated framework adds its own part.
    const gdpr = await activate(t, 'gdpr');
    const p3 = (await t.call('GET', '/v1/trust/posture')).body;
    expect(p3.frameworks.map((f: { framework: string }) => f.framework)).toEqual(['eu-ai-act', 'gdpr']);
    expect(p3.controls).toBe(controls.length + gdpr.length);
    expect(p3.score).toBeCloseTo(2 / (controls.length + gdpr.length), 3);
  });
});

describe('trust: posture from an approved gap analysis', () => {
  it('gives each control the gap analysis assessed its status, with the assessment as its source; open ones do not count', async () => {
    const t = await createTenant(ts);
    const controls = await activate(t, 'eu-ai-act');
    const [c0, c1, c2] = controls as [string, string, string];
    // Evidence on all three: by evidence alone every one would pass.
    await addEvidence(t, [c0, c1, c2]);
    const before = (await t.call('GET', '/v1/trust/posture')).body;
    expect(before.frameworks[0]).toMatchObject({
      evidenced: 3,
      passing: 3,
      partial: 0,
      failing: 0,
      gapAnalysis: null,
      assessedControls: [],
    });

    const key = async (name: string) => {
      const u = await t.call('POST', '/v1/stakeholders/users', { body: { name, email: `${name.toLowerCase()}.${slugOf()}@example.com` } });
      expect(u.status, JSON.stringify(u.body)).toBe(201);
      return { id: u.body.id as string, token: await t.personKey(u.body.id) };
    };
    const ana = await key('Ana');
    const ben = await key('Ben');
    const A = '/v1/compliance/assessments';
    const gap = await t.call('POST', A, {
      body: { type: 'gap-analysis', systemId: 'sys_trust', jurisdiction: 'eu/de', framework: 'eu-ai-act' },
    });
    expect(gap.status, JSON.stringify(gap.body)).toBe(201);
    const id = gap.body.id as string;
    const answer = (c: string, value: string) =>
      call(ts.url, 'PUT', `${A}/${id}/questions/req.${c}/answer`, {
        token: ana.token,
        body: { value, ...(value === 'compliant' ? {} : { notes: `Assessed ${value}.` }) },
      });
    const statusOf: Record<string, string> = { [c0]: 'non_compliant', [c1]: 'partially_compliant', [c2]: 'compliant' };
    for (const c of controls) {
      const res = await answer(c, statusOf[c] ?? 'not_applicable');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    // Answered but not approved: the posture is still the evidence's.
    const open = (await t.call('GET', '/v1/trust/posture')).body;
    expect(open.frameworks[0]).toMatchObject({ passing: 3, failing: 0, gapAnalysis: null });
    expect(open.score).toBeCloseTo(3 / controls.length, 3);

    expect((await call(ts.url, 'POST', `${A}/${id}/submit`, { token: ana.token, body: {} })).status).toBe(200);
    const approved = await call(ts.url, 'POST', `${A}/${id}/approve`, { token: ben.token, body: {} });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);

    const after = (await t.call('GET', '/v1/trust/posture')).body;
    const fw = after.frameworks[0];
    expect(fw).toMatchObject({
      evidenced: 3,
      passing: 1,
      partial: 1,
      failing: 1,
      gapAnalysis: { assessmentId: id, approvedAt: approved.body.approvedAt },
    });
    const source = `gap-analysis:${id}`;
    expect(fw.assessedControls.find((x: { control: string }) => x.control === c0)).toEqual({
      control: c0,
      requirement: 'non_compliant',
      status: 'failing',
      evidenced: true,
      source,
    });
    expect(fw.assessedControls.find((x: { control: string }) => x.control === c1)).toMatchObject({ status: 'partial', source });
    expect(fw.assessedControls.find((x: { control: string }) => x.control === c2)).toMatchObject({ status: 'passing', source });
    // Not applicable, without evidence: not evidenced.
    const other = controls[3] as string;
    expect(fw.assessedControls.find((x: { control: string }) => x.control === other)).toMatchObject({
      requirement: 'not_applicable',
      status: 'not_evidenced',
    });
    // Score: one passing and a half for the partial one, of all controls.
    expect(after.score).toBeCloseTo(1.5 / controls.length, 3);
    expect(fw.score).toBeCloseTo(1.5 / controls.length, 3);
  }, 180_000);
});

describe('trust: certifications and sub-processors', () => {
  it('records certifications and shows expired ones as such', async () => {
    const t = await createTenant(ts);
    const valid = await t.call('POST', '/v1/trust/certifications', {
      body: { name: 'ISO/IEC 27001:2022', issuer: 'BSI', validFrom: '2026-01-01T00:00:00.000Z', validUntil: '2099-01-01T00:00:00.000Z' },
    });
    expect(valid.status).toBe(201);
    expect(valid.body).toMatchObject({ object: 'svc.trust.certification', expired: false, scope: null });
    expect(valid.body.id).toMatch(/^crt_/);
    const old = await t.call('POST', '/v1/trust/certifications', {
      body: { name: 'SOC 2 Type II', issuer: 'Audit LLP', validFrom: '2023-01-01T00:00:00.000Z', validUntil: '2024-01-01T00:00:00.000Z' },
    });
    expect(old.body.expired).toBe(true);
    const list = await collectPages<{ id: string; expired: boolean }>(t, '/v1/trust/certifications');
    expect(list.map((c) => [c.id, c.expired]).sort()).toEqual(
      [
        [valid.body.id, false],
        [old.body.id, true],
      ].sort(),
    );
    const bad = await t.call('POST', '/v1/trust/certifications', {
      body: { name: 'x', issuer: 'y', validFrom: '2026-01-01T00:00:00.000Z', validUntil: '2025-01-01T00:00:00.000Z' },
    });
    expectEnvelope(bad, 422, 'validation_failed');
  });

  it('records sub-processors as { name, purpose, region }', async () => {
    const t = await createTenant(ts);
    const res = await t.call('POST', '/v1/trust/sub-processors', { body: { name: 'Hetzner', purpose: 'Hosting', region: 'EU/DE' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'svc.trust.sub_processor', name: 'Hetzner', purpose: 'Hosting', region: 'eu/de' });
    const list = await t.call('GET', '/v1/trust/sub-processors');
    expect(list.body.data).toEqual([res.body]);
    expectEnvelope(await t.call('POST', '/v1/trust/sub-processors', { body: { name: 'X', purpose: 'Y' } }), 422, 'validation_failed');
    const other = await createTenant(ts);
    expectEnvelope(await other.call('GET', `/v1/trust/sub-processors/${res.body.id}`), 404, 'not_found');
  });
});

describe('trust: publishing and the public page', () => {
  it('is 404 before publishing, readable without a token after, 404 again after unpublishing', async () => {
    const t = await createTenant(ts);
    const slug = slugOf();
    const before = await t.call('GET', '/v1/trust/status');
    expect(before.body).toEqual({ object: 'svc.trust.status', published: false, slug: null, publicPath: null, updatedAt: null });
    expectEnvelope(await call(ts.url, 'GET', `/v1/trust/public/${slug}`), 404, 'not_found');

    const controls = await activate(t, 'eu-ai-act');
    await addEvidence(t, [controls[0] as string]);
    await t.call('POST', '/v1/trust/sub-processors', { body: { name: 'Hetzner', purpose: 'Hosting', region: 'eu' } });
    await t.call('POST', '/v1/trust/certifications', {
      body: { name: 'ISO/IEC 27001:2022', issuer: 'BSI', validFrom: '2026-01-01T00:00:00.000Z' },
    });

    const pub = await t.call('POST', '/v1/trust/publish', { body: { slug } });
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ published: true, slug, publicPath: `/v1/trust/public/${slug}` });
    expect((await t.call('GET', '/v1/trust/status')).body).toMatchObject({ published: true, slug });

    // No token at all.
    const page = await call(ts.url, 'GET', `/v1/trust/public/${slug}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ object: 'svc.trust.public_page', slug });
    expect(page.body.subProcessors).toEqual([{ name: 'Hetzner', purpose: 'Hosting', region: 'eu' }]);
    expect(page.body.certifications).toHaveLength(1);
    expect(page.body.certifications[0].createdBy).toBeUndefined();
    expect(page.body.posture).toMatchObject({ evidenced: 1, controls: controls.length });

    // The public page follows the data.
    await addEvidence(t, [controls[1] as string]);
    expect((await call(ts.url, 'GET', `/v1/trust/public/${slug}`)).body.posture.evidenced).toBe(2);

    const un = await t.call('POST', '/v1/trust/unpublish', { body: {} });
    expect(un.body).toMatchObject({ published: false, slug, publicPath: null });
    expectEnvelope(await call(ts.url, 'GET', `/v1/trust/public/${slug}`), 404, 'not_found');
  });

  it('publishes sent at once by one tenant all succeed; a slug two tenants claim at once goes to one of them', async () => {
    const a = await createTenant(ts);
    const b = await createTenant(ts);
    const own = slugOf();
    const sent = await Promise.all([1, 2, 3].map(() => a.call('POST', '/v1/trust/publish', { body: { slug: own } })));
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200]);
    const contested = slugOf();
    const claims = await Promise.all([a, b].map((who) => who.call('POST', '/v1/trust/publish', { body: { slug: contested } })));
    expect(claims.map((r) => r.status).sort()).toEqual([200, 409]);
    expectEnvelope(claims.find((r) => r.status === 409) as (typeof claims)[number], 409, 'conflict');
  });

  it('a slug is unique across tenants (409), and the publish is audited', async () => {
    const a = await createTenant(ts);
    const b = await createTenant(ts);
    const slug = slugOf();
    expect((await a.call('POST', '/v1/trust/publish', { body: { slug } })).status).toBe(200);
    expectEnvelope(await b.call('POST', '/v1/trust/publish', { body: { slug } }), 409, 'conflict');
    // Still reserved after unpublishing.
    await a.call('POST', '/v1/trust/unpublish', { body: {} });
    expectEnvelope(await b.call('POST', '/v1/trust/publish', { body: { slug } }), 409, 'conflict');
    expectEnvelope(await a.call('POST', '/v1/trust/publish', { body: { slug: 'Bad Slug!' } }), 422, 'validation_failed');

    const audit = await a.call('GET', '/v1/audit-trail/events?limit=200');
    expect(audit.status).toBe(200);
    const actions = (audit.body.data as { action: string }[]).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['trust_page.published', 'trust_page.unpublished']));
    // The refused publish left no event.
    const bAudit = await b.call('GET', '/v1/audit-trail/events?limit=200');
    expect((bAudit.body.data as { action: string }[]).map((e) => e.action)).not.toContain('trust_page.published');
  });
});

describe('trust: questionnaires', () => {
  it('answers yes with the evidence ids when cited controls are evidenced, else lists why', async () => {
    const t = await createTenant(ts);
    const controls = await activate(t, 'eu-ai-act');
    const [c0, c1] = controls as [string, string];
    const e0 = await addEvidence(t, [c0]);
    const ask = () =>
      t.call('POST', '/v1/trust/questionnaires', {
        body: {
          questions: [
            { id: 'Q1', text: 'Covered?', controlIds: [c0] },
            { id: 'Q2', text: 'Both?', controlIds: [c0, c1] },
            { id: 'Q3', text: 'Unknown?', controlIds: ['NOPE-01'] },
            { id: 'Q4', text: 'GDPR?', framework: 'gdpr' },
            { id: 'Q5', text: 'Nothing cited' },
          ],
        },
      });
    const r1 = await ask();
    expect(r1.status).toBe(200);
    expect(r1.body.answered).toEqual([{ id: 'Q1', text: 'Covered?', answer: 'yes', controlIds: [c0], evidenceIds: [e0] }]);
    const why = Object.fromEntries((r1.body.unanswerable as { id: string; reason: string; controlIds: string[] }[]).map((u) => [u.id, u]));
    expect(why.Q2).toMatchObject({ reason: 'missing_evidence', controlIds: [c1] });
    expect(why.Q3).toMatchObject({ reason: 'unknown_controls', controlIds: ['NOPE-01'] });
    expect(why.Q4).toMatchObject({ reason: 'framework_not_activated' });
    expect(why.Q5).toMatchObject({ reason: 'no_controls_cited' });

    const e1 = await addEvidence(t, [c1]);
    const r2 = await ask();
    expect(r2.body.answered.map((a: { id: string }) => a.id)).toEqual(['Q1', 'Q2']);
    expect(r2.body.answered[1].evidenceIds).toEqual([e0, e1].sort());
    expectEnvelope(await t.call('POST', '/v1/trust/questionnaires', { body: { questions: [] } }), 422, 'validation_failed');
  });
});

describe('trust: NDA vault', () => {
  it('releases a document, without a token, only to an accepted NDA request of the same tenant', async () => {
    const t = await createTenant(ts);
    const doc = await t.call('POST', '/v1/trust/nda-vault', {
      body: { title: 'SOC 2 report', contentUri: 'https://files.example.com/soc2.pdf', mediaType: 'application/pdf' },
    });
    expect(doc.status).toBe(201);
    expect(doc.body.contentUri).toBeUndefined();
    const req = await t.call('POST', '/v1/trust/nda-vault/requests', { body: { requesterEmail: 'Jo@Example.com', requesterName: 'Jo' } });
    expect(req.status).toBe(201);
    expect(req.body).toMatchObject({ status: 'pending', requesterEmail: 'jo@example.com', accessToken: null });
    const content = (docId: string, r: string, token: string) =>
      call(ts.url, 'GET', `/v1/trust/nda-vault/${docId}/content?ndaRequestId=${r}&accessToken=${encodeURIComponent(token)}`);
    const guess = 'x'.repeat(32);

    // Pending: not released.
    expectEnvelope(await content(doc.body.id, req.body.id, guess), 403, 'forbidden');
    const acc = await t.call('POST', `/v1/trust/nda-vault/requests/${req.body.id}/accept`, { body: {} });
    expect(acc.status).toBe(200);
    expect(acc.body.status).toBe('accepted');
    const token = acc.body.accessToken as string;
    expect(token.length).toBeGreaterThanOrEqual(16);
    // Shown once.
    expect((await t.call('GET', `/v1/trust/nda-vault/requests/${req.body.id}`)).body.accessToken).toBeNull();

    const got = await content(doc.body.id, req.body.id, token);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      documentId: doc.body.id,
      ndaRequestId: req.body.id,
      contentUri: 'https://files.example.com/soc2.pdf',
    });
    expectEnvelope(await content(doc.body.id, req.body.id, guess), 403, 'forbidden');

    // Another tenant cannot read the vault: not its documents through its API key, and an NDA of
    // the other tenant does not release this tenant's documents.
    const other = await createTenant(ts);
    expectEnvelope(await other.call('GET', `/v1/trust/nda-vault/${doc.body.id}`), 404, 'not_found');
    expectEnvelope(await other.call('GET', `/v1/trust/nda-vault/requests/${req.body.id}`), 404, 'not_found');
    const oreq = await other.call('POST', '/v1/trust/nda-vault/requests', {
      body: { requesterEmail: 'x@example.com', requesterName: 'X' },
    });
    const oacc = await other.call('POST', `/v1/trust/nda-vault/requests/${oreq.body.id}/accept`, { body: {} });
    expectEnvelope(await content(doc.body.id, oreq.body.id, oacc.body.accessToken), 403, 'forbidden');

    // Revoked: no longer released.
    await t.call('POST', `/v1/trust/nda-vault/requests/${req.body.id}/revoke`, { body: {} });
    expectEnvelope(await content(doc.body.id, req.body.id, token), 403, 'forbidden');
    // Accepting again is a conflict; the changes are audited.
    expectEnvelope(await t.call('POST', `/v1/trust/nda-vault/requests/${req.body.id}/accept`, { body: {} }), 409, 'conflict');
    const audit = await t.call('GET', '/v1/audit-trail/events?limit=200');
    expect((audit.body.data as { action: string }[]).map((e) => e.action)).toEqual(
      expect.arrayContaining(['nda_document.created', 'nda_request.created', 'nda_request.accepted', 'nda_request.revoked']),
    );
    const listed = await t.call('GET', '/v1/trust/nda-vault/requests?status=revoked');
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([req.body.id]);
  });
});

describe('trust: NDA access tokens', () => {
  it('the token is in the response of accept only: stored hashed, in no audit event or webhook event; a second accept is a 409 naming the state', async () => {
    const t = await createTenant(ts);
    const sub = await t.call('POST', '/v1/webhook-subscriptions', {
      body: { url: 'https://hooks.example.com/nda', eventTypes: ['nda_request.*'] },
    });
    expect(sub.status).toBe(201);
    const req = await t.call('POST', '/v1/trust/nda-vault/requests', { body: { requesterEmail: 'kim@example.com', requesterName: 'Kim' } });
    const acc = await t.call('POST', `/v1/trust/nda-vault/requests/${req.body.id}/accept`, { body: {} });
    expect(acc.status).toBe(200);
    const token = acc.body.accessToken as string;
    expect(token.length).toBeGreaterThanOrEqual(16);

    const row = await ts.server.db.prisma.trustNdaRequest.findUnique({ where: { id: req.body.id } });
    expect(row?.accessTokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(token);
    const events = await ts.server.db.prisma.webhookEvent.findMany({ where: { tenantId: t.tenantId, subject: req.body.id } });
    expect(events.map((e) => e.type).sort()).toEqual(['nda_request.accepted', 'nda_request.created']);
    expect(JSON.stringify(events)).not.toContain(token);
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: req.body.id, limit: 50 } });
    expect(audit.body.data.map((e: { action: string }) => e.action).sort()).toEqual(['nda_request.accepted', 'nda_request.created']);
    expect(JSON.stringify(audit.body)).not.toContain(token);

    const again = expectEnvelope(await t.call('POST', `/v1/trust/nda-vault/requests/${req.body.id}/accept`, { body: {} }), 409, 'conflict');
    expect(again.message).toContain('accepted');
    await t.call('DELETE', `/v1/webhook-subscriptions/${sub.body.id}`);
  });
});

describe('trust: NDA request records', () => {
  it('the create audits the lowercased email and the company; revoking drops the stored token hash, and a second revoke is a 409', async () => {
    const t = await createTenant(ts);
    const req = await t.call('POST', '/v1/trust/nda-vault/requests', {
      body: { requesterEmail: 'Lee@Example.COM', requesterName: 'Lee', company: 'Example Ltd' },
    });
    expect(req.status).toBe(201);
    expect(req.body.id).toMatch(/^ndr_/);
    const created = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: req.body.id, limit: 50 } });
    expect(created.body.data).toHaveLength(1);
    expect(created.body.data[0]).toMatchObject({
      action: 'nda_request.created',
      data: { requesterEmail: 'lee@example.com', company: 'Example Ltd' },
    });

    expect((await t.call('POST', `/v1/trust/nda-vault/requests/${req.body.id}/accept`, { body: {} })).status).toBe(200);
    const revoked = await t.call('POST', `/v1/trust/nda-vault/requests/${req.body.id}/revoke`, { body: {} });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ status: 'revoked', accessToken: null });
    const row = await ts.server.db.prisma.trustNdaRequest.findUnique({ where: { id: req.body.id } });
    expect(row?.accessTokenHash).toBeNull();
    const again = expectEnvelope(await t.call('POST', `/v1/trust/nda-vault/requests/${req.body.id}/revoke`, { body: {} }), 409, 'conflict');
    expect(again.message).toContain('revoked');
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: req.body.id, limit: 50 } });
    const revokedEvent = audit.body.data.find((e: { action: string }) => e.action === 'nda_request.revoked');
    expect(revokedEvent.data).toMatchObject({ from: 'accepted', to: 'revoked' });
  });
});

describe('trust: access', () => {
  it('is open to sandbox tenants; needs a token except the public page; read-only keys cannot write', async () => {
    const s = await createTenant(ts, { tier: 'sandbox' });
    expect((await s.call('GET', '/v1/trust/posture')).status).toBe(200);
    expect((await s.call('GET', '/v1/trust/status')).status).toBe(200);
    expect((await s.call('POST', '/v1/trust/sub-processors', { body: { name: 'A', purpose: 'B', region: 'eu' } })).status).toBe(201);
    expectEnvelope(await call(ts.url, 'GET', '/v1/trust/posture'), 401, 'unauthorized');
    const viewer = await s.key('viewer');
    expectEnvelope(await call(ts.url, 'POST', '/v1/trust/publish', { token: viewer, body: { slug: slugOf() } }), 403, 'forbidden');
  });
});
