import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The whistleblower rail, Directive (EU) 2019/1937. The deadlines below were worked out by hand from
 * Art. 9(1)(b) (7 days from receipt) and (f) (3 months from the acknowledgement, or from the end of
 * the 7-day period when none was sent; a day missing in the target month is its last day).
 */

let ts: TestServer;
let t: TenantFixture;
let other: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts);
  other = await createTenant(ts);
});
afterAll(() => ts?.close());

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;

interface Clock {
  clock: string;
  dueAt: string;
  basis: string;
  source: string;
  metAt: string | null;
  state: string;
}
const clock = (r: { clocks: Clock[] }, name: string) => r.clocks.find((c) => c.clock === name) as Clock;

async function record(body: Record<string, unknown>, who = t) {
  const res = await who.call('POST', '/v1/whistleblower/reports', {
    body: { category: 'privacy_data_protection', description: 'Data exported to a private drive.', channel: 'email', ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function publish(who: TenantFixture) {
  const slug = `speak-${unique()}`;
  const res = await who.call('PUT', '/v1/whistleblower/intake', { body: { slug, enabled: true } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toMatchObject({ slug, enabled: true, intakePath: `/v1/whistleblower/intake/${slug}` });
  return slug;
}

const anon = (method: string, path: string, body?: unknown) => call(ts.url, method, path, { body });

describe('whistleblower: Art. 9(1) clocks, worked out by hand', () => {
  it('acknowledgement 7 days from receipt; feedback 3 months after the end of the 7-day period when none was sent', async () => {
    const r = await record({ receivedAt: '2026-03-10T09:00:00.000Z' });
    expect(r.status).toBe('received');
    expect(clock(r, 'acknowledgement')).toMatchObject({
      dueAt: '2026-03-17T09:00:00.000Z',
      basis: 'received',
      source: 'Directive (EU) 2019/1937 Art. 9(1)(b)',
      metAt: null,
      state: 'overdue',
    });
    // 17 March + 3 months = 17 June.
    expect(clock(r, 'feedback')).toMatchObject({
      dueAt: '2026-06-17T09:00:00.000Z',
      basis: 'end_of_acknowledgement_period',
      source: 'Directive (EU) 2019/1937 Art. 9(1)(f)',
      state: 'overdue',
    });
    expect(r.overdue).toBe(true);
  });

  it('month ends: 30 November + 3 months is 28 February (no 30 February)', async () => {
    // Received 23 November 2025: the 7-day period ends 30 November 2025.
    const r = await record({ receivedAt: '2025-11-23T10:00:00.000Z' });
    expect(clock(r, 'acknowledgement').dueAt).toBe('2025-11-30T10:00:00.000Z');
    expect(clock(r, 'feedback').dueAt).toBe('2026-02-28T10:00:00.000Z');
  });

  it('3 months from the acknowledgement, leap year: acknowledged 30 November 2023 -> 29 February 2024', async () => {
    const r = await record({ receivedAt: '2023-11-25T08:00:00.000Z', acknowledgedAt: '2023-11-30T12:00:00.000Z' });
    expect(r.status).toBe('acknowledged');
    expect(clock(r, 'acknowledgement')).toMatchObject({
      dueAt: '2023-12-02T08:00:00.000Z',
      metAt: '2023-11-30T12:00:00.000Z',
      state: 'met',
    });
    expect(clock(r, 'feedback')).toMatchObject({ dueAt: '2024-02-29T12:00:00.000Z', basis: 'acknowledged', state: 'overdue' });
  });

  it('a late acknowledgement is met_late; feedback counts from it (31 May -> 31 August); feedback stamps the clock', async () => {
    const r = await record({ receivedAt: '2026-05-20T08:00:00.000Z', acknowledgedAt: '2026-05-31T16:00:00.000Z' });
    expect(clock(r, 'acknowledgement')).toMatchObject({ dueAt: '2026-05-27T08:00:00.000Z', state: 'met_late' });
    expect(clock(r, 'feedback').dueAt).toBe('2026-08-31T16:00:00.000Z');
    const late = await t.call('POST', `/v1/whistleblower/reports/${r.id}/feedback`, {
      body: { message: 'We stopped the exports.', givenAt: '2026-09-01T00:00:00.000Z' },
    });
    expect(late.status, JSON.stringify(late.body)).toBe(200);
    expect(late.body.feedbackAt).toBe('2026-09-01T00:00:00.000Z');
    expect(clock(late.body, 'feedback')).toMatchObject({ metAt: '2026-09-01T00:00:00.000Z', state: 'met_late' });
    expect(late.body.overdue).toBe(false);

    const onTime = await record({ receivedAt: '2026-05-20T08:00:00.000Z', acknowledgedAt: '2026-05-21T08:00:00.000Z' });
    // 21 May + 3 months = 21 August; feedback on 20 August is on time.
    const ok = await t.call('POST', `/v1/whistleblower/reports/${onTime.id}/feedback`, {
      body: { message: 'Investigation opened.', givenAt: '2026-08-20T10:00:00.000Z' },
    });
    expect(clock(ok.body, 'feedback')).toMatchObject({ dueAt: '2026-08-21T08:00:00.000Z', state: 'met' });
  });

  it('acknowledge stamps now; the feedback clock then counts from the acknowledgement', async () => {
    const r = await record({ receivedAt: '2026-11-20T08:00:00.000Z' });
    const before = Date.now();
    const ack = await t.call('POST', `/v1/whistleblower/reports/${r.id}/acknowledge`, { body: {} });
    expect(ack.status).toBe(200);
    const at = new Date(ack.body.acknowledgedAt);
    expect(at.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(clock(ack.body, 'acknowledgement')).toMatchObject({ dueAt: '2026-11-27T08:00:00.000Z', metAt: ack.body.acknowledgedAt });
    const fb = clock(ack.body, 'feedback');
    expect(fb.basis).toBe('acknowledged');
    // Three months later, same day and time (the day exists in every month ahead of a day <= 28).
    if (at.getUTCDate() <= 28) {
      const expected = new Date(at);
      expected.setUTCMonth(at.getUTCMonth() + 3);
      expect(fb.dueAt).toBe(expected.toISOString());
    }
  });

  it('receivedAt in the future, acknowledgedAt before receivedAt: 422 naming the field', async () => {
    const future = await t.call('POST', '/v1/whistleblower/reports', {
      body: { category: 'other', description: 'x', channel: 'phone', receivedAt: '2099-01-01T00:00:00.000Z' },
    });
    expect(expectEnvelope(future, 422, 'validation_failed').details?.[0]?.field).toBe('receivedAt');
    const before = await t.call('POST', '/v1/whistleblower/reports', {
      body: {
        category: 'other',
        description: 'x',
        channel: 'phone',
        receivedAt: '2026-01-10T00:00:00.000Z',
        acknowledgedAt: '2026-01-09T00:00:00.000Z',
      },
    });
    expect(expectEnvelope(before, 422, 'validation_failed').details?.[0]?.field).toBe('acknowledgedAt');
    const web = await t.call('POST', '/v1/whistleblower/reports', { body: { category: 'other', description: 'x', channel: 'web_intake' } });
    expect(expectEnvelope(web, 422, 'validation_failed').details?.[0]?.field).toBe('channel');
  });
});

describe('whistleblower: anonymous intake and follow-up with the access code', () => {
  const identity = { name: 'Jana Whistle-Novak', email: 'jana.secret@example.org', phone: '+49 30 1234567' };
  const seen: string[] = [];
  const keep = <T extends CallResult>(res: T): T => {
    seen.push(JSON.stringify(res.body));
    return res;
  };

  it('takes a report without a token, returns the access code once, keeps only its hash and seals the identity', async () => {
    const slug = await publish(t);
    const before = Date.now();
    const res = keep(
      await anon('POST', `/v1/whistleblower/intake/${slug}`, {
        category: 'financial_services',
        description: 'Loan files are back-dated before the audit.',
        reporter: identity,
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { accessCode, receivedAt, acknowledgementDueAt, feedbackDueAt } = res.body;
    expect(accessCode).toMatch(/^WB(-[0-9A-HJKMNP-TV-Z]{4}){8}$/);
    const received = new Date(receivedAt).getTime();
    expect(received).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(acknowledgementDueAt).getTime() - received).toBe(7 * 86_400_000);
    expect(new Date(feedbackDueAt).getTime()).toBeGreaterThan(new Date(acknowledgementDueAt).getTime() + 88 * 86_400_000);

    // The tenant sees the report, flagged, without the identity and without the code.
    const list = keep(await t.call('GET', '/v1/whistleblower/reports?limit=200'));
    const mine = list.body.data.find(
      (r: { channel: string; description: string }) => r.description === 'Loan files are back-dated before the audit.',
    );
    expect(mine).toMatchObject({
      channel: 'web_intake',
      status: 'received',
      identityProvided: true,
      followUpByCode: true,
      createdBy: 'public-intake',
    });
    keep(await t.call('GET', `/v1/whistleblower/reports/${mine.id}`));
    keep(await t.call('GET', '/v1/whistleblower/triage'));
    keep(await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: mine.id, limit: 50 } }));

    // Stored: a SHA-256 of the code, the identity sealed.
    const row = await ts.server.db.prisma.whistleblowerReport.findUnique({ where: { id: mine.id } });
    expect(row?.accessCodeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(accessCode.slice(3));
    expect(row?.identitySealed).toMatch(/^enc:v1:/);
    expect(row?.identitySealed).not.toContain('jana');
    const events = await ts.server.db.prisma.webhookEvent.findMany({ where: { tenantId: t.tenantId, subject: mine.id } });
    seen.push(JSON.stringify(events));

    // Follow-up: the code as typed, in lower case and without hyphens; a wrong code is a 404.
    const view = keep(await anon('POST', '/v1/whistleblower/follow-up', { accessCode }));
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ status: 'received', category: 'financial_services', acknowledgementDueAt, messages: [] });
    const loose = await anon('POST', '/v1/whistleblower/follow-up', { accessCode: accessCode.toLowerCase().replaceAll('-', '') });
    expect(loose.status).toBe(200);
    const wrongCode = `WB-${'0000-'.repeat(7)}0000`;
    expectEnvelope(await anon('POST', '/v1/whistleblower/follow-up', { accessCode: wrongCode }), 404, 'not_found');
    const tampered = accessCode.slice(0, -1) + (accessCode.endsWith('0') ? '1' : '0');
    expectEnvelope(await anon('POST', '/v1/whistleblower/follow-up', { accessCode: tampered }), 404, 'not_found');
    // The hash itself is not a code.
    expectEnvelope(
      await anon('POST', '/v1/whistleblower/follow-up', { accessCode: String(row?.accessCodeHash).slice(0, 60) }),
      404,
      'not_found',
    );

    // The thread: the reporter writes, the organisation answers, both read it.
    const msg = keep(await anon('POST', '/v1/whistleblower/follow-up/messages', { accessCode, body: 'It started in March.' }));
    expect(msg.status, JSON.stringify(msg.body)).toBe(200);
    expect(msg.body.messages).toMatchObject([{ from: 'reporter', body: 'It started in March.' }]);
    const answer = keep(await t.call('POST', `/v1/whistleblower/reports/${mine.id}/messages`, { body: { body: 'Which folder?' } }));
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ object: 'svc.whistleblower.message', from: 'organisation', reportId: mine.id });
    const thread = keep(await t.call('GET', `/v1/whistleblower/reports/${mine.id}/messages`));
    expect(thread.body.data.map((m: { from: string }) => m.from)).toEqual(['reporter', 'organisation']);
    const again = keep(await anon('POST', '/v1/whistleblower/follow-up', { accessCode }));
    expect(again.body.messages.map((m: { body: string }) => m.body)).toEqual(['It started in March.', 'Which folder?']);
    expectEnvelope(await anon('POST', '/v1/whistleblower/follow-up/messages', { accessCode: wrongCode, body: 'x' }), 404, 'not_found');

    // Acknowledge, then the reporter sees it.
    keep(await t.call('POST', `/v1/whistleblower/reports/${mine.id}/acknowledge`, { body: {} }));
    const acked = keep(await anon('POST', '/v1/whistleblower/follow-up', { accessCode }));
    expect(acked.body.status).toBe('acknowledged');
    expect(acked.body.acknowledgedAt).not.toBeNull();

    // The code appears in no response but the receipt; the identity in none at all.
    const everything = seen.join('\n');
    expect(everything.split(accessCode).length - 1).toBe(1);
    for (const v of Object.values(identity)) expect(everything).not.toContain(v);
    expect(everything).not.toContain('jana');
  });

  it('an intake set several times at once is one row; a slug two tenants claim at once goes to one of them', async () => {
    const mine = await createTenant(ts, { tier: 'enterprise' });
    const theirs = await createTenant(ts, { tier: 'enterprise' });
    const own = `own-${unique()}`;
    const sent = await Promise.all(
      [true, false, true].map((enabled) => mine.call('PUT', '/v1/whistleblower/intake', { body: { slug: own, enabled } })),
    );
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await mine.call('GET', '/v1/whistleblower/intake')).body.slug).toBe(own);
    const contested = `contested-${unique()}`;
    const claims = await Promise.all(
      [mine, theirs].map((who) => who.call('PUT', '/v1/whistleblower/intake', { body: { slug: contested, enabled: true } })),
    );
    expect(claims.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(expectEnvelope(claims.find((r) => r.status === 409) as (typeof claims)[number], 409, 'conflict').message).toContain(
      'taken by another tenant',
    );
  });

  it('an unknown, disabled or other tier slug is the same 404; the slug is unique across tenants; bad input is 422', async () => {
    const missing = await anon('POST', `/v1/whistleblower/intake/nobody-${unique()}`, { category: 'other', description: 'x' });
    const env = expectEnvelope(missing, 404, 'not_found');
    const slug = await publish(other);
    expectEnvelope(await t.call('PUT', '/v1/whistleblower/intake', { body: { slug, enabled: true } }), 409, 'conflict');
    expect((await other.call('PUT', '/v1/whistleblower/intake', { body: { slug, enabled: false } })).body.intakePath).toBeNull();
    const disabled = expectEnvelope(
      await anon('POST', `/v1/whistleblower/intake/${slug}`, { category: 'other', description: 'x' }),
      404,
      'not_found',
    );
    expect(disabled.message.replace(slug, 'S')).toBe(env.message.replace(/nobody-[a-z0-9]+/, 'S'));
    await other.call('PUT', '/v1/whistleblower/intake', { body: { slug, enabled: true } });
    const bad = await anon('POST', `/v1/whistleblower/intake/${slug}`, { category: 'gossip', description: 'x' });
    expect(expectEnvelope(bad, 422, 'validation_failed').details?.[0]?.field).toBe('category');
    const extra = await anon('POST', `/v1/whistleblower/intake/${slug}`, {
      category: 'other',
      description: 'x',
      receivedAt: '2020-01-01T00:00:00.000Z',
    });
    expectEnvelope(extra, 422, 'validation_failed');
    const email = await anon('POST', `/v1/whistleblower/intake/${slug}`, {
      category: 'other',
      description: 'x',
      reporter: { email: 'nope' },
    });
    expectEnvelope(email, 422, 'validation_failed');
    // The intake of a tenant whose tier no longer admits the rail answers as an unknown one.
    await ts.server.db.prisma.tenant.update({ where: { id: other.tenantId }, data: { tier: 'growth' } });
    try {
      const gated = expectEnvelope(
        await anon('POST', `/v1/whistleblower/intake/${slug}`, { category: 'other', description: 'x' }),
        404,
        'not_found',
      );
      expect(gated.message).toBe(disabled.message);
    } finally {
      await ts.server.db.prisma.tenant.update({ where: { id: other.tenantId }, data: { tier: 'enterprise' } });
    }
  });
});

describe('whistleblower: lifecycle, investigations, protections', () => {
  it('received -> acknowledged -> triaged -> investigating -> closed, every other move a 409 that changes nothing', async () => {
    const r = await record({ receivedAt: '2026-11-01T08:00:00.000Z' });
    const triage = (body: Record<string, unknown> = {}) =>
      t.call('POST', '/v1/whistleblower/triage', { body: { reportId: r.id, severity: 'high', inScope: true, ...body } });
    expect(expectEnvelope(await triage(), 409, 'conflict').message).toContain('received');
    expectEnvelope(await t.call('POST', `/v1/whistleblower/reports/${r.id}/feedback`, { body: { message: 'x' } }), 409, 'conflict');
    expectEnvelope(await t.call('POST', `/v1/whistleblower/reports/${r.id}/investigate`, { body: {} }), 409, 'conflict');
    expectEnvelope(
      await t.call('POST', `/v1/whistleblower/reports/${r.id}/close`, { body: { outcome: 'no_further_action', summary: 'x' } }),
      409,
      'conflict',
    );
    expect((await t.call('GET', `/v1/whistleblower/reports/${r.id}`)).body.status).toBe('received');

    expect((await t.call('POST', `/v1/whistleblower/reports/${r.id}/acknowledge`, { body: {} })).body.status).toBe('acknowledged');
    expect(
      expectEnvelope(await t.call('POST', `/v1/whistleblower/reports/${r.id}/acknowledge`, { body: {} }), 409, 'conflict').message,
    ).toContain('acknowledged');
    const early = await t.call('POST', '/v1/whistleblower/investigations', { body: { reportId: r.id, investigator: 'Audit' } });
    expectEnvelope(early, 409, 'conflict');

    const triaged = await triage({ category: 'financial_services', assignee: 'Ethics office', scopeNote: 'Art. 2(1)(a)(ii)' });
    expect(triaged.status, JSON.stringify(triaged.body)).toBe(200);
    expect(triaged.body).toMatchObject({
      status: 'triaged',
      category: 'financial_services',
      severity: 'high',
      inScope: true,
      assignee: 'Ethics office',
    });
    expect(triaged.body.triagedAt).not.toBeNull();
    const queue = await t.call('GET', '/v1/whistleblower/triage?limit=200');
    expect(queue.body.data.map((x: { id: string }) => x.id)).not.toContain(r.id);

    const inv = await t.call('POST', '/v1/whistleblower/investigations', { body: { reportId: r.id, investigator: 'Internal audit' } });
    expect(inv.status, JSON.stringify(inv.body)).toBe(201);
    expect(inv.body.status).toBe('open');
    expect((await t.call('POST', `/v1/whistleblower/reports/${r.id}/investigate`, { body: {} })).body.status).toBe('investigating');
    const blocked = await t.call('POST', `/v1/whistleblower/reports/${r.id}/close`, { body: { outcome: 'substantiated', summary: 'x' } });
    expect(expectEnvelope(blocked, 409, 'conflict').message).toContain('investigation');

    const conclude = (id: string) =>
      t.call('POST', `/v1/whistleblower/investigations/${id}/conclude`, { body: { findings: 'Confirmed.', outcome: 'substantiated' } });
    expectEnvelope(await conclude(inv.body.id), 409, 'conflict');
    const started = await t.call('POST', `/v1/whistleblower/investigations/${inv.body.id}/start`, { body: {} });
    expect(started.body).toMatchObject({ status: 'in_progress' });
    expect(started.body.startedAt).not.toBeNull();
    const done = await conclude(inv.body.id);
    expect(done.body).toMatchObject({ status: 'concluded', findings: 'Confirmed.', outcome: 'substantiated' });
    expectEnvelope(await conclude(inv.body.id), 409, 'conflict');
    expectEnvelope(await t.call('POST', `/v1/whistleblower/investigations/${inv.body.id}/discontinue`, { body: {} }), 409, 'conflict');

    const closed = await t.call('POST', `/v1/whistleblower/reports/${r.id}/close`, {
      body: { outcome: 'substantiated', summary: 'Exports stopped; rights revoked.' },
    });
    expect(closed.body).toMatchObject({ status: 'closed', outcome: 'substantiated', outcomeSummary: 'Exports stopped; rights revoked.' });
    expectEnvelope(await triage(), 409, 'conflict');
    expectEnvelope(
      await t.call('POST', '/v1/whistleblower/investigations', { body: { reportId: r.id, investigator: 'x' } }),
      409,
      'conflict',
    );

    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: r.id, limit: 50 } });
    expect(audit.body.data.map((e: { action: string }) => e.action).reverse()).toEqual([
      'whistleblower_report.received',
      'whistleblower_report.acknowledged',
      'whistleblower_report.triaged',
      'whistleblower_report.investigating',
      'whistleblower_report.closed',
    ]);
  });

  it('feedback joins the thread at the instant it stamps on the report; the audit events say what changed', async () => {
    const r = await record({ receivedAt: '2026-11-01T08:00:00.000Z', acknowledgedAt: '2026-11-02T08:00:00.000Z' });
    const fb = await t.call('POST', `/v1/whistleblower/reports/${r.id}/feedback`, { body: { message: 'We are looking into it.' } });
    expect(fb.status, JSON.stringify(fb.body)).toBe(200);
    expect(fb.body).toMatchObject({ status: 'acknowledged', feedbackAt: expect.any(String) });
    const thread = await t.call('GET', `/v1/whistleblower/reports/${r.id}/messages`);
    expect(thread.body.data).toMatchObject([
      { from: 'organisation', kind: 'feedback', body: 'We are looking into it.', createdAt: fb.body.feedbackAt },
    ]);
    const future = await t.call('POST', `/v1/whistleblower/reports/${r.id}/feedback`, {
      body: { message: 'x', givenAt: '2099-01-01T00:00:00.000Z' },
    });
    expect(expectEnvelope(future, 422, 'validation_failed').details?.[0]?.field).toBe('givenAt');
    expect((await t.call('GET', `/v1/whistleblower/reports/${r.id}/messages`)).body.data).toHaveLength(1);
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: r.id, limit: 50 } });
    const given = audit.body.data.find((e: { action: string }) => e.action === 'whistleblower_report.feedback_given');
    expect(given.data).toMatchObject({ givenAt: fb.body.feedbackAt, dueAt: clock(fb.body, 'feedback').dueAt, state: 'met' });

    const p = await t.call('POST', '/v1/whistleblower/protections', {
      body: { reportId: r.id, kind: 'confidentiality', measure: 'Need-to-know access.', reviewAt: '2030-01-01T00:00:00.000Z' },
    });
    const next = '2030-06-01T00:00:00.000Z';
    const reviewed = await t.call('POST', `/v1/whistleblower/protections/${p.body.id}/review`, {
      body: { nextReviewAt: next, note: 'Fine.' },
    });
    expect(reviewed.body).toMatchObject({ status: 'active', reviewAt: next });
    const trail = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: p.body.id, limit: 50 } });
    expect(trail.body.data.find((e: { action: string }) => e.action === 'whistleblower_protection.reviewed').data).toMatchObject({
      previousReviewAt: '2030-01-01T00:00:00.000Z',
      nextReviewAt: next,
      note: 'Fine.',
    });
  });

  it('protections: review state from the review date, reviewed, lifted, then 409', async () => {
    const r = await record({ receivedAt: '2026-11-01T08:00:00.000Z' });
    const soon = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const later = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const p = await t.call('POST', '/v1/whistleblower/protections', {
      body: { reportId: r.id, kind: 'no_adverse_action', measure: 'No appraisal change without review.', reviewAt: soon },
    });
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    expect(p.body).toMatchObject({ status: 'active', reviewState: 'due', protectedParty: 'reporter', reviewAt: soon });
    const reviewed = await t.call('POST', `/v1/whistleblower/protections/${p.body.id}/review`, {
      body: { nextReviewAt: later, note: 'No change.' },
    });
    expect(reviewed.body).toMatchObject({ reviewAt: later, reviewState: 'scheduled' });
    const past = await t.call('POST', `/v1/whistleblower/protections/${p.body.id}/review`, {
      body: { nextReviewAt: '2026-01-01T00:00:00.000Z' },
    });
    expect(expectEnvelope(past, 422, 'validation_failed').details?.[0]?.field).toBe('nextReviewAt');
    const lifted = await t.call('POST', `/v1/whistleblower/protections/${p.body.id}/lift`, { body: {} });
    expect(lifted.body).toMatchObject({ status: 'lifted', reviewState: 'not_applicable' });
    expect(lifted.body.liftedAt).not.toBeNull();
    expectEnvelope(
      await t.call('POST', `/v1/whistleblower/protections/${p.body.id}/review`, { body: { nextReviewAt: later } }),
      409,
      'conflict',
    );
    const unknown = await t.call('POST', '/v1/whistleblower/protections', {
      body: { reportId: 'wbr_01JD3Z8W2M6Q4X9V7K5T1B0N3R', kind: 'other', measure: 'x', reviewAt: later },
    });
    expect(expectEnvelope(unknown, 422, 'validation_failed').details?.[0]?.field).toBe('reportId');
  });

  it('two changes of one report at once: one is made, the other is a 409 naming the state it found; updatedAt moves forward', async () => {
    const r = await record({ receivedAt: '2026-11-01T08:00:00.000Z', acknowledgedAt: '2026-11-02T08:00:00.000Z' });
    const triaged = await t.call('POST', '/v1/whistleblower/triage', { body: { reportId: r.id, severity: 'low', inScope: true } });
    expect(triaged.status, JSON.stringify(triaged.body)).toBe(200);
    expect(Date.parse(triaged.body.updatedAt)).toBeGreaterThan(Date.parse(r.updatedAt));
    const close = () =>
      t.call('POST', `/v1/whistleblower/reports/${r.id}/close`, { body: { outcome: 'no_further_action', summary: 'Nothing found.' } });
    const both = await Promise.all([close(), close()]);
    expect(both.map((x) => x.status).sort()).toEqual([200, 409]);
    const refused = both.find((x) => x.status === 409) as CallResult;
    expect(expectEnvelope(refused, 409, 'conflict').message).toContain('is closed');
    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: r.id, limit: 50 } });
    expect(audit.body.data.filter((e: { action: string }) => e.action === 'whistleblower_report.closed')).toHaveLength(1);
  });

  it('tenancy: another tenant gets 404 on every report route; a tier below enterprise gets 403', async () => {
    const r = await record({});
    expectEnvelope(await other.call('GET', `/v1/whistleblower/reports/${r.id}`), 404, 'not_found');
    expectEnvelope(await other.call('POST', `/v1/whistleblower/reports/${r.id}/acknowledge`, { body: {} }), 404, 'not_found');
    expectEnvelope(
      await other.call('POST', '/v1/whistleblower/triage', { body: { reportId: r.id, severity: 'low', inScope: false } }),
      404,
      'not_found',
    );
    expectEnvelope(await other.call('GET', `/v1/whistleblower/reports/${r.id}/messages`), 404, 'not_found');
    expectEnvelope(await other.call('POST', `/v1/whistleblower/reports/${r.id}/messages`, { body: { body: 'x' } }), 404, 'not_found');
    const theirs = await other.call('GET', '/v1/whistleblower/reports?limit=200');
    expect(theirs.body.data.map((x: { id: string }) => x.id)).not.toContain(r.id);
    const growth = await createTenant(ts, { tier: 'growth' });
    const denied = await growth.call('GET', '/v1/whistleblower/reports');
    expect(expectEnvelope(denied, 403, 'forbidden').details).toEqual([{ field: 'tier', issue: 'enterprise' }]);
    expectEnvelope(
      await growth.call('PUT', '/v1/whistleblower/intake', { body: { slug: `g-${unique()}`, enabled: true } }),
      403,
      'forbidden',
    );
    const viewer = await t.key('viewer');
    const ro = await call(ts.url, 'POST', `/v1/whistleblower/reports/${r.id}/acknowledge`, { token: viewer, body: {} });
    expectEnvelope(ro, 403, 'forbidden');
  });
});
