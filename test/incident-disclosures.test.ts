import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The incident-disclosures rail. Every deadline below was worked out by hand from the provision
 * it cites, not from the code: 72 hours, 24 hours, one calendar month (clamped to the month's last
 * day, leap years included), 4 hours capped at 24, 15/10/2 days, 3 business days.
 */

let ts: TestServer;
let t: TenantFixture;
beforeAll(async () => {
  ts = await startTestServer();
  t = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 1000 });
});
afterAll(() => ts?.close());

interface Clock {
  regime: string;
  stage: string;
  dueAt: string | null;
  basis: string;
  source: string;
  state: string;
  submittedAt: string | null;
}

async function open(body: Record<string, unknown>, who = t) {
  const res = await who.call('POST', '/v1/incident-disclosures/disclosures', { body: { title: 'Incident', ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; clocks: Clock[]; status: string };
}
const clock = (d: { clocks: Clock[] }, regime: string, stage: string) => {
  const c = d.clocks.find((x) => x.regime === regime && x.stage === stage);
  if (!c) throw new Error(`no clock ${regime} ${stage} in ${JSON.stringify(d.clocks)}`);
  return c;
};
const file = (id: string, body: Record<string, unknown>) =>
  t.call('POST', `/v1/incident-disclosures/disclosures/${id}/submissions`, { body });

describe('incident disclosures: clocks per regime', () => {
  it('GDPR and UK GDPR: 72 hours from awareness; data subjects only when the risk is high, without a fixed time', async () => {
    const d = await open({ regimes: ['gdpr', 'uk-gdpr'], knownAt: '2026-11-20T08:00:00.000Z' });
    expect(clock(d, 'gdpr', 'authority-notification')).toMatchObject({
      dueAt: '2026-11-23T08:00:00.000Z',
      basis: 'aware',
      source: 'GDPR Art. 33(1)',
    });
    expect(clock(d, 'uk-gdpr', 'authority-notification')).toMatchObject({
      dueAt: '2026-11-23T08:00:00.000Z',
      source: 'UK GDPR Art. 33(1)',
    });
    expect(d.clocks.some((c) => c.stage === 'data-subject-communication')).toBe(false);
    const high = await open({ regimes: ['gdpr'], knownAt: '2026-11-20T08:00:00.000Z', factors: { highRiskToDataSubjects: true } });
    expect(clock(high, 'gdpr', 'data-subject-communication')).toMatchObject({
      dueAt: null,
      state: 'no_deadline',
      source: 'GDPR Art. 34(1)',
    });
    // Stages without a deadline come last.
    expect(high.clocks.at(-1)?.stage).toBe('data-subject-communication');
  });

  it('NIS2: 24 h early warning, 72 h notification, final report one month after the notification is filed (month end and leap year)', async () => {
    const d = await open({ regimes: ['nis2'], knownAt: '2026-01-31T10:00:00.000Z' });
    expect(clock(d, 'nis2', 'early-warning')).toMatchObject({ dueAt: '2026-02-01T10:00:00.000Z', state: 'late' });
    expect(clock(d, 'nis2', 'incident-notification')).toMatchObject({ dueAt: '2026-02-03T10:00:00.000Z' });
    // Before the notification is filed, the final report counts from its deadline: 3 Feb + 1 month.
    expect(clock(d, 'nis2', 'final-report')).toMatchObject({
      dueAt: '2026-03-03T10:00:00.000Z',
      basis: 'provisional:incident-notification',
    });
    // Filing the final report before the notification it follows is refused.
    expectEnvelope(await file(d.id, { regime: 'nis2', stage: 'final-report', submittedAt: '2026-02-01T00:00:00.000Z' }), 409, 'conflict');
    const filed = await file(d.id, { regime: 'nis2', stage: 'incident-notification', submittedAt: '2026-01-31T20:00:00.000Z' });
    expect(filed.status).toBe(200);
    expect(clock(filed.body, 'nis2', 'incident-notification')).toMatchObject({
      state: 'submitted',
      submittedAt: '2026-01-31T20:00:00.000Z',
    });
    // 31 January + 1 month: February has no 31st, so its last day (2026 is not a leap year).
    expect(clock(filed.body, 'nis2', 'final-report')).toMatchObject({
      dueAt: '2026-02-28T20:00:00.000Z',
      basis: 'submission:incident-notification',
    });

    // 31 March + 1 month: April has no 31st either. (An incident known before 18 October 2024, when
    // NIS2 reporting applied, gets no clock at all: clocks.test.ts.)
    const spring = await open({ regimes: ['nis2'], knownAt: '2026-03-31T09:00:00.000Z' });
    const filedSpring = await file(spring.id, { regime: 'nis2', stage: 'incident-notification', submittedAt: '2026-03-31T12:00:00.000Z' });
    expect(clock(filedSpring.body, 'nis2', 'final-report').dueAt).toBe('2026-04-30T12:00:00.000Z');
  });

  it('DORA: 24 h after awareness until classified, then 4 h after classification capped at 24 h; 72 h intermediate; final one month after it', async () => {
    const d = await open({ regimes: ['dora'], knownAt: '2026-03-02T09:00:00.000Z' });
    expect(clock(d, 'dora', 'initial-notification')).toMatchObject({ dueAt: '2026-03-03T09:00:00.000Z', basis: 'aware' });
    const classified = await t.call('PATCH', `/v1/incident-disclosures/disclosures/${d.id}`, {
      body: { classifiedMajorAt: '2026-03-02T12:00:00.000Z' },
    });
    expect(classified.status).toBe(200);
    expect(clock(classified.body, 'dora', 'initial-notification')).toMatchObject({
      dueAt: '2026-03-02T16:00:00.000Z',
      basis: 'classified',
    });
    // The intermediate report runs provisionally from the initial deadline: 16:00 + 72 h.
    expect(clock(classified.body, 'dora', 'intermediate-report').dueAt).toBe('2026-03-05T16:00:00.000Z');
    const late = await t.call('PATCH', `/v1/incident-disclosures/disclosures/${d.id}`, {
      body: { classifiedMajorAt: '2026-03-03T07:00:00.000Z' },
    });
    // 07:00 + 4 h = 11:00 is past the 24-hour bound of 09:00: the bound wins.
    expect(clock(late.body, 'dora', 'initial-notification')).toMatchObject({ dueAt: '2026-03-03T09:00:00.000Z', basis: 'aware' });

    await file(d.id, { regime: 'dora', stage: 'initial-notification', submittedAt: '2026-03-03T08:00:00.000Z' });
    const inter = await file(d.id, { regime: 'dora', stage: 'intermediate-report', submittedAt: '2026-03-05T10:00:00.000Z' });
    expect(clock(inter.body, 'dora', 'intermediate-report')).toMatchObject({ dueAt: '2026-03-06T08:00:00.000Z', state: 'submitted' });
    expect(clock(inter.body, 'dora', 'final-report')).toMatchObject({
      dueAt: '2026-04-05T10:00:00.000Z',
      basis: 'submission:intermediate-report',
    });
    // A filing before the one it follows is refused; a second filing of a stage too.
    expectEnvelope(
      await file(d.id, { regime: 'dora', stage: 'final-report', submittedAt: '2026-03-05T09:00:00.000Z' }),
      422,
      'validation_failed',
    );
    expectEnvelope(await file(d.id, { regime: 'dora', stage: 'intermediate-report' }), 409, 'conflict');
  });

  it('EU AI Act: no clock for an incident known before 2 December 2027, when Art. 73 applies as amended', async () => {
    // The day arithmetic of Art. 73(2)-(4) is unit-tested in clocks.test.ts; an incident known today
    // (before Annex III high-risk duties apply) gets no EU AI Act deadline, and says why.
    const d = await open({ regimes: ['eu-ai-act'], knownAt: '2026-09-10T00:00:00.000Z' });
    const c = clock(d, 'eu-ai-act', 'serious-incident-report');
    expect(c).toMatchObject({ dueAt: null, state: 'not_applicable' });
    expect(c.source).toMatch(/2026\/1744/);
  });

  it('LGPD: 3 business days, skipping the weekend', async () => {
    // Friday 13 November 2026, 10:00 -> Monday, Tuesday, Wednesday 18 November, 10:00.
    const d = await open({ regimes: ['lgpd'], knownAt: '2026-11-13T10:00:00.000Z' });
    expect(clock(d, 'lgpd', 'authority-notification').dueAt).toBe('2026-11-18T10:00:00.000Z');
  });

  it('a filing after its deadline is submitted_late, on time submitted; the knownAt defaults to now', async () => {
    const d = await open({ regimes: ['gdpr'], knownAt: '2026-11-01T00:00:00.000Z' });
    const filed = await file(d.id, {
      regime: 'gdpr',
      stage: 'authority-notification',
      submittedAt: '2026-11-05T00:00:00.000Z',
      reference: 'DPA-1',
    });
    expect(clock(filed.body, 'gdpr', 'authority-notification')).toMatchObject({ state: 'submitted_late' });
    expect(filed.body.submissions).toEqual([
      expect.objectContaining({ stage: 'authority-notification', reference: 'DPA-1', channelId: null }),
    ]);
    const before = Date.now();
    const now = await open({ regimes: ['gdpr'] });
    const due = new Date(clock(now, 'gdpr', 'authority-notification').dueAt as string).getTime();
    expect(due - before).toBeGreaterThanOrEqual(72 * 3_600_000 - 1_000);
    expect(due - Date.now()).toBeLessThanOrEqual(72 * 3_600_000);
    expect(clock(now, 'gdpr', 'authority-notification').state).toBe('pending');
  });
});

describe('incident disclosures: channels, drafts, timeline, SLA', () => {
  it('a channel carries its regime’s rules; a draft fills the stage’s fields from the facts and lists what is missing', async () => {
    const u = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 1000 });
    const ch = await u.call('POST', '/v1/incident-disclosures/channels', {
      body: { regime: 'gdpr', name: 'CNIL', email: 'notifications@example.org' },
    });
    expect(ch.status).toBe(201);
    expect(ch.body.rules.map((r: { stage: string }) => r.stage)).toEqual(['authority-notification', 'data-subject-communication']);
    expectEnvelope(await u.call('POST', '/v1/incident-disclosures/channels', { body: { regime: 'gdpr', name: 'cnil' } }), 409, 'conflict');

    const d = await open(
      { regimes: ['gdpr'], knownAt: '2026-11-20T08:00:00.000Z', facts: { nature: 'Stolen laptop', approximateDataSubjects: 40 } },
      u,
    );
    const first = await u.call('POST', '/v1/incident-disclosures/drafts', {
      body: { disclosureId: d.id, regime: 'gdpr', stage: 'authority-notification' },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ version: 1, authority: 'CNIL', dueAt: '2026-11-23T08:00:00.000Z', source: 'GDPR Art. 33(1)' });
    expect(first.body.fields).toEqual({ nature: 'Stolen laptop', approximateDataSubjects: 40 });
    expect(first.body.missing).toEqual([
      'categoriesOfDataSubjects',
      'approximateRecords',
      'contactPoint',
      'likelyConsequences',
      'measures',
    ]);
    expect(first.body.body).toContain('Nature of the incident: Stolen laptop');
    expect(first.body.body).toContain('Contact point: [to be completed]');

    await u.call('PATCH', `/v1/incident-disclosures/disclosures/${d.id}`, {
      body: { facts: { contactPoint: 'dpo@example.com', measures: 'Remote wipe; passwords reset', approximateDataSubjects: 41 } },
    });
    const second = await u.call('POST', '/v1/incident-disclosures/drafts', {
      body: { disclosureId: d.id, regime: 'gdpr', stage: 'authority-notification' },
    });
    expect(second.body).toMatchObject({ version: 2 });
    expect(second.body.fields).toMatchObject({ nature: 'Stolen laptop', approximateDataSubjects: 41, contactPoint: 'dpo@example.com' });
    expect(second.body.missing).toEqual(['categoriesOfDataSubjects', 'approximateRecords', 'likelyConsequences']);

    expectEnvelope(
      await u.call('POST', '/v1/incident-disclosures/drafts', { body: { disclosureId: d.id, regime: 'nis2', stage: 'early-warning' } }),
      422,
      'validation_failed',
    );
    expectEnvelope(
      await u.call('POST', '/v1/incident-disclosures/drafts', {
        body: { disclosureId: d.id, regime: 'gdpr', stage: 'data-subject-communication' },
      }),
      422,
      'validation_failed',
    );
    // Another tenant's disclosure is not a reference this tenant can use.
    expectEnvelope(
      await t.call('POST', '/v1/incident-disclosures/drafts', {
        body: { disclosureId: d.id, regime: 'gdpr', stage: 'authority-notification' },
      }),
      422,
      'validation_failed',
    );
    expectEnvelope(await t.call('GET', `/v1/incident-disclosures/disclosures/${d.id}`), 404, 'not_found');

    const filed = await u.call('POST', `/v1/incident-disclosures/disclosures/${d.id}/submissions`, {
      body: { regime: 'gdpr', stage: 'authority-notification', submittedAt: '2026-11-21T10:00:00.000Z', channelId: ch.body.id },
    });
    expect(filed.status).toBe(200);
    await u.call('POST', `/v1/incident-disclosures/disclosures/${d.id}/close`, { body: {} });
    const tl = await u.call('GET', `/v1/incident-disclosures/timelines/${d.id}`);
    expect(tl.status).toBe(200);
    const kinds = tl.body.entries.map((e: { kind: string }) => e.kind);
    expect(kinds[0]).toBe('aware');
    expect(kinds.filter((k: string) => k === 'draft')).toHaveLength(2);
    expect(kinds).toContain('submission');
    expect(kinds).toContain('due');
    expect(kinds.at(-1)).toBe('closed');
    const at = tl.body.entries.map((e: { at: string }) => e.at);
    expect([...at].sort()).toEqual(at);
    const sub = tl.body.entries.find((e: { kind: string }) => e.kind === 'submission');
    expect(sub).toMatchObject({ at: '2026-11-21T10:00:00.000Z', regime: 'gdpr', stage: 'authority-notification' });
  });

  it('sla: what is due when across open disclosures, overdue and due soon counted at a given moment', async () => {
    const u = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 1000 });
    const a = await open({ regimes: ['gdpr'], knownAt: '2026-11-01T00:00:00.000Z' }, u); // due 11-04T00:00
    const b = await open({ regimes: ['nis2'], knownAt: '2026-11-03T12:00:00.000Z' }, u); // 11-04T12:00, 11-06T12:00, final provisional 12-06T12:00
    const at = '2026-11-04T06:00:00.000Z';
    const s = await u.call('GET', `/v1/incident-disclosures/sla?at=${at}`);
    expect(s.status).toBe(200);
    expect(
      s.body.items.map((i: { disclosureId: string; stage: string; state: string; hoursRemaining: number }) => [
        i.disclosureId,
        i.stage,
        i.state,
        i.hoursRemaining,
      ]),
    ).toEqual([
      [a.id, 'authority-notification', 'overdue', -6],
      [b.id, 'early-warning', 'due_soon', 6],
      [b.id, 'incident-notification', 'on_track', 54],
      [b.id, 'final-report', 'on_track', 54 + 30 * 24],
    ]);
    expect(s.body).toMatchObject({ overdue: 1, dueSoon: 1, onTrack: 2 });
    // Filing takes a stage off the list; closing takes the disclosure off.
    await u.call('POST', `/v1/incident-disclosures/disclosures/${b.id}/submissions`, {
      body: { regime: 'nis2', stage: 'early-warning', submittedAt: '2026-11-04T01:00:00.000Z' },
    });
    await u.call('POST', `/v1/incident-disclosures/disclosures/${a.id}/close`, { body: {} });
    const s2 = await u.call('GET', `/v1/incident-disclosures/sla?at=${at}&regime=nis2`);
    expect(s2.body.items.map((i: { stage: string }) => i.stage)).toEqual(['incident-notification', 'final-report']);
    expect(s2.body).toMatchObject({ overdue: 0, dueSoon: 0, onTrack: 2 });
  });
});

describe('incident disclosures: the channel a draft names', () => {
  it('is addressed to the channel named, else the first of its regime; a channel of another regime or tenant is 422 on channelId', async () => {
    const u = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 1000 });
    const post = (path: string, body: Record<string, unknown>, who = u) => who.call('POST', `/v1/incident-disclosures/${path}`, { body });
    expect((await post('channels', { regime: 'gdpr', name: 'CNIL' })).status).toBe(201);
    const bfdi = await post('channels', { regime: 'gdpr', name: 'BfDI' });
    const bsi = await post('channels', { regime: 'nis2', name: 'BSI' });
    const elsewhere = await post('channels', { regime: 'gdpr', name: `Garante ${bfdi.body.id}` }, t);
    const d = await open({ regimes: ['gdpr', 'nis2'], knownAt: '2026-11-20T08:00:00.000Z' }, u);
    const draft = (channelId?: string) =>
      post('drafts', { disclosureId: d.id, regime: 'gdpr', stage: 'authority-notification', ...(channelId ? { channelId } : {}) });

    expect((await draft()).body).toMatchObject({ authority: 'CNIL', version: 1 });
    expect((await draft(bfdi.body.id)).body).toMatchObject({ authority: 'BfDI', version: 2 });
    for (const id of [bsi.body.id, elsewhere.body.id]) {
      const refused = expectEnvelope(await draft(id), 422, 'validation_failed');
      expect(refused.details[0]).toMatchObject({ field: 'channelId' });
    }
    // The refused drafts took no version.
    expect((await draft()).body.version).toBe(3);
  });

  it('a closed disclosure refuses facts and filings with 409 naming its state, and keeps what it had', async () => {
    const d = await open({ regimes: ['gdpr'], knownAt: '2026-11-20T08:00:00.000Z', facts: { nature: 'Phishing' } });
    await t.call('POST', `/v1/incident-disclosures/disclosures/${d.id}/close`, { body: {} });
    const patch = await t.call('PATCH', `/v1/incident-disclosures/disclosures/${d.id}`, { body: { facts: { nature: 'x' } } });
    expect(expectEnvelope(patch, 409, 'conflict').details[0]).toMatchObject({ field: 'status', message: 'current state: closed' });
    const filing = expectEnvelope(await file(d.id, { regime: 'gdpr', stage: 'authority-notification' }), 409, 'conflict');
    expect(filing.message).toContain('closed');
    const now = (await t.call('GET', `/v1/incident-disclosures/disclosures/${d.id}`)).body;
    expect(now).toMatchObject({ status: 'closed', facts: { nature: 'Phishing' }, submissions: [] });
  });
});

describe('incident disclosures: drafts made at once', () => {
  it('drafts of one stage made at once take the next versions in turn, none refused', async () => {
    const d = await open({ regimes: ['gdpr'], knownAt: '2026-11-20T08:00:00.000Z', facts: { nature: 'Stolen laptop' } });
    const body = { disclosureId: d.id, regime: 'gdpr', stage: 'authority-notification' };
    const all = await Promise.all(Array.from({ length: 5 }, () => t.call('POST', '/v1/incident-disclosures/drafts', { body })));
    expect(
      all.map((r) => r.status),
      JSON.stringify(all.map((r) => r.body)),
    ).toEqual([201, 201, 201, 201, 201]);
    expect(all.map((r) => r.body.version).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it('channels of one regime and name (without case) sent at once: one channel and 409s', async () => {
    const name = `Garante ${Date.now()}`;
    const all = await Promise.all(
      [name, name.toUpperCase(), name].map((n) =>
        t.call('POST', '/v1/incident-disclosures/channels', { body: { regime: 'gdpr', name: n } }),
      ),
    );
    expect(all.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });
});

describe('incident disclosures: lifecycle, validation, tiers', () => {
  it('a closed disclosure takes no filing or change until reopened; illegal transitions are 409 naming the state', async () => {
    const d = await open({ regimes: ['gdpr'], knownAt: '2026-11-20T08:00:00.000Z' });
    const closed = await t.call('POST', `/v1/incident-disclosures/disclosures/${d.id}/close`, { body: { reason: 'handled' } });
    expect(closed.body.status).toBe('closed');
    const again = await t.call('POST', `/v1/incident-disclosures/disclosures/${d.id}/close`, { body: {} });
    expectEnvelope(again, 409, 'conflict');
    expect(again.body.message).toMatch(/closed/);
    expectEnvelope(await file(d.id, { regime: 'gdpr', stage: 'authority-notification' }), 409, 'conflict');
    expectEnvelope(
      await t.call('PATCH', `/v1/incident-disclosures/disclosures/${d.id}`, { body: { facts: { nature: 'x' } } }),
      409,
      'conflict',
    );
    expect((await t.call('POST', `/v1/incident-disclosures/disclosures/${d.id}/reopen`, { body: {} })).body.status).toBe('open');
    expect((await file(d.id, { regime: 'gdpr', stage: 'authority-notification' })).status).toBe(200);
  });

  it('refuses moments in the future or before awareness, duplicate regimes, and stages of other regimes', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expectEnvelope(
      await t.call('POST', '/v1/incident-disclosures/disclosures', { body: { title: 'x', regimes: ['gdpr'], knownAt: future } }),
      422,
      'validation_failed',
    );
    expectEnvelope(
      await t.call('POST', '/v1/incident-disclosures/disclosures', {
        body: { title: 'x', regimes: ['dora'], knownAt: '2026-03-02T09:00:00.000Z', classifiedMajorAt: '2026-03-01T09:00:00.000Z' },
      }),
      422,
      'validation_failed',
    );
    expectEnvelope(
      await t.call('POST', '/v1/incident-disclosures/disclosures', { body: { title: 'x', regimes: ['gdpr', 'gdpr'] } }),
      422,
      'validation_failed',
    );
    expectEnvelope(
      await t.call('POST', '/v1/incident-disclosures/disclosures', { body: { title: 'x', regimes: ['hipaa'] } }),
      422,
      'validation_failed',
    );
    const d = await open({ regimes: ['gdpr'], knownAt: '2026-11-20T08:00:00.000Z' });
    const wrong = await file(d.id, { regime: 'nis2', stage: 'early-warning' });
    expectEnvelope(wrong, 422, 'validation_failed');
    expect(wrong.body.details[0]).toMatchObject({ field: 'regime' });
    expectEnvelope(await file(d.id, { regime: 'gdpr', stage: 'early-warning' }), 422, 'validation_failed');
    expectEnvelope(
      await file(d.id, { regime: 'gdpr', stage: 'authority-notification', submittedAt: '2026-11-19T00:00:00.000Z' }),
      422,
      'validation_failed',
    );
    const other = await t.call('POST', '/v1/incident-disclosures/channels', { body: { regime: 'nis2', name: `CSIRT ${d.id}` } });
    expectEnvelope(
      await file(d.id, { regime: 'gdpr', stage: 'authority-notification', channelId: other.body.id }),
      422,
      'validation_failed',
    );
    // Nothing was recorded by the refused filings.
    expect((await t.call('GET', `/v1/incident-disclosures/disclosures/${d.id}`)).body.submissions).toEqual([]);
  });

  it('is a starter rail: a sandbox tenant gets 403; a viewer reads but does not write', async () => {
    const sandbox = await createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 1000 });
    expectEnvelope(await sandbox.call('GET', '/v1/incident-disclosures/sla'), 403, 'forbidden');
    expectEnvelope(
      await sandbox.call('POST', '/v1/incident-disclosures/disclosures', { body: { title: 'x', regimes: ['gdpr'] } }),
      403,
      'forbidden',
    );
    const viewer = await t.key('viewer');
    expect((await t.call('GET', '/v1/incident-disclosures/disclosures', { token: viewer })).status).toBe(200);
    expectEnvelope(
      await t.call('POST', '/v1/incident-disclosures/disclosures', { token: viewer, body: { title: 'x', regimes: ['gdpr'] } }),
      403,
      'forbidden',
    );
  });

  it('filters the list by regime and status, and records each change in the audit trail', async () => {
    const u = await createTenant(ts, { tier: 'starter', rateLimitPerSecond: 1000 });
    const a = await open({ regimes: ['gdpr', 'nis2'], knownAt: '2026-11-20T08:00:00.000Z' }, u);
    const b = await open({ regimes: ['dora'], knownAt: '2026-11-20T08:00:00.000Z' }, u);
    await u.call('POST', `/v1/incident-disclosures/disclosures/${b.id}/close`, { body: {} });
    const nis2 = await u.call('GET', '/v1/incident-disclosures/disclosures?regime=nis2');
    expect(nis2.body.data.map((d: { id: string }) => d.id)).toEqual([a.id]);
    const closed = await u.call('GET', '/v1/incident-disclosures/disclosures?status=closed');
    expect(closed.body.data.map((d: { id: string }) => d.id)).toEqual([b.id]);
    await u.call('POST', `/v1/incident-disclosures/disclosures/${a.id}/submissions`, {
      body: { regime: 'nis2', stage: 'early-warning', submittedAt: '2026-11-20T20:00:00.000Z' },
    });
    const events = (await u.call('GET', '/v1/audit-trail/events?limit=50')).body.data.map((e: { action: string }) => e.action);
    expect(events).toEqual(expect.arrayContaining(['incident.reported', 'incident.closed', 'incident.disclosed']));
  });
});
