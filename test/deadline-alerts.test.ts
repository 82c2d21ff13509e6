import { getWebhookEventType } from '@svc/contract';
import { verifyChain } from '@svc/contract/audit';
import { sweepDeadlines } from '@svc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEADLINE_SOURCES } from '../packages/server/src/platform/events/deadline-sweep.ts';
import { createTenant, type TenantFixture } from './support/api.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';

/**
 * The deadline sweep runs beside the dispatcher (SVC_ROLE=all here, every second) on a database
 * of its own: it announces each missed disclosure deadline once, as an audited change with its
 * webhook event, and never one that is met, not yet due, or of a closed disclosure.
 */
let ts: TestServer;
let t: TenantFixture;

const HOUR = 3_600_000;

beforeAll(async () => {
  ts = await startIsolatedTestServer({ SVC_ROLE: 'all', SVC_DEADLINE_SWEEP_SECONDS: '1', SVC_WEBHOOK_PORT: '0' });
  t = await createTenant(ts);
  const sub = await t.call('POST', '/v1/webhook-subscriptions', {
    body: { url: 'https://hooks.example.com/svc', eventTypes: ['incident.sla_breached'] },
  });
  expect(sub.status).toBe(201);
});
afterAll(() => ts?.close());

async function breaches(tenant: TenantFixture) {
  const res = await tenant.call('POST', '/v1/audit-trail/query', { body: { action: 'incident.sla_breached', limit: 100 } });
  expect(res.status).toBe(200);
  return res.body.data as { resourceId: string; actor: string; data: { key: string; dueAt: string } }[];
}

async function waitFor<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 8000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > until) return v;
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('deadline sweep: missed disclosure clocks', () => {
  it('announces each late clock once, with the deadline worked out from knownAt, and nothing else', async () => {
    // Known 80 hours ago, to the minute: GDPR's 72 h and NIS2's 24 h and 72 h have passed; NIS2's
    // final report counts from a notification not filed yet, a month out.
    const known = new Date(Math.floor((Date.now() - 80 * HOUR) / 60_000) * 60_000);
    const late = await t.call('POST', '/v1/incident-disclosures/disclosures', {
      body: { title: 'Bucket exposed', regimes: ['gdpr', 'nis2'], knownAt: known.toISOString() },
    });
    expect(late.status).toBe(201);
    const recent = await t.call('POST', '/v1/incident-disclosures/disclosures', {
      body: { title: 'Phishing wave', regimes: ['gdpr'], knownAt: new Date(Date.now() - HOUR).toISOString() },
    });
    expect(recent.status).toBe(201);
    // Its 72 hours end 4 seconds from now, after it is closed: a closed disclosure is not swept.
    const closed = await t.call('POST', '/v1/incident-disclosures/disclosures', {
      body: { title: 'Lost laptop', regimes: ['gdpr'], knownAt: new Date(Date.now() - 72 * HOUR + 4000).toISOString() },
    });
    expect((await t.call('POST', `/v1/incident-disclosures/disclosures/${closed.body.id}/close`, { body: {} })).status).toBe(200);

    const found = await waitFor(
      () => breaches(t),
      (rows) => rows.length >= 3,
    );
    const plus = (h: number) => new Date(known.getTime() + h * HOUR).toISOString();
    expect(found.map((e) => e.data.key).sort()).toEqual(
      [`gdpr:authority-notification:${plus(72)}`, `nis2:early-warning:${plus(24)}`, `nis2:incident-notification:${plus(72)}`].sort(),
    );
    await new Promise((r) => setTimeout(r, 4000));
    for (const e of found) {
      expect(e.resourceId).toBe(late.body.id);
      expect(e.actor).toBe('deadline-sweep');
    }

    // Further sweeps (the closed disclosure's deadline has passed meanwhile): nothing more, nothing twice.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await breaches(t)).map((e) => e.resourceId)).toEqual([late.body.id, late.body.id, late.body.id]);

    // The webhook event carries the registry's data, one per deadline.
    const events = await ts.server.db.prisma.webhookEvent.findMany({ where: { tenantId: t.tenantId, type: 'incident.sla_breached' } });
    expect(events).toHaveLength(3);
    const def = getWebhookEventType('incident.sla_breached');
    for (const e of events) {
      expect(def?.data.safeParse(e.data).success).toBe(true);
      expect(e.data).toMatchObject({ id: late.body.id, status: 'open', title: 'Bucket exposed' });
    }
    const gdpr = events.find((e) => (e.data as { regime: string }).regime === 'gdpr');
    expect(gdpr?.data).toMatchObject({ stage: 'authority-notification', deadline: plus(72), source: 'GDPR Art. 33(1)' });

    // The chain still verifies with the sweep's events in it.
    const all = await t.call('GET', '/v1/audit-trail/events?limit=200');
    const keys = (await t.call('GET', '/v1/audit-trail/keys')).body.data;
    expect(verifyChain([...all.body.data].reverse(), keys, { tenantId: t.tenantId }).valid).toBe(true);
  });

  it('a filing that moves a later clock makes a new deadline; passes racing each other announce it once', async () => {
    const other = await createTenant(ts);
    // Known 40 days ago; the NIS2 notification was filed 35 days ago, so the final report (one month
    // after the filing) fell due 5 days ago (Oct/Nov or whatever months: counted by the service,
    // and checked here against the clock it shows).
    const known = new Date(Date.now() - 40 * 24 * HOUR);
    const d = await other.call('POST', '/v1/incident-disclosures/disclosures', {
      body: { title: 'Ransomware', regimes: ['nis2'], knownAt: known.toISOString() },
    });
    expect(d.status).toBe(201);
    const filedAt = new Date(Date.now() - 35 * 24 * HOUR).toISOString();
    for (const stage of ['early-warning', 'incident-notification']) {
      const f = await other.call('POST', `/v1/incident-disclosures/disclosures/${d.body.id}/submissions`, {
        body: { regime: 'nis2', stage, submittedAt: filedAt },
      });
      expect(f.status, JSON.stringify(f.body)).toBe(200);
    }
    const now = await other.call('GET', `/v1/incident-disclosures/disclosures/${d.body.id}`);
    const final = now.body.clocks.find((c: { stage: string }) => c.stage === 'final-report');
    expect(final.state).toBe('late');
    // A month after the filing, the same day number (or the month's last day).
    const f = new Date(filedAt);
    const expected = new Date(f);
    expected.setUTCMonth(f.getUTCMonth() + 1);
    if (expected.getUTCDate() !== f.getUTCDate()) expected.setUTCDate(0);
    expect(final.dueAt).toBe(expected.toISOString());

    // Two passes at once, and the scheduled one: one announcement.
    await Promise.all([sweepDeadlines(ts.server.db.prisma), sweepDeadlines(ts.server.db.prisma)]);
    const rows = await waitFor(
      () => breaches(other),
      (r) => r.length >= 1,
    );
    await new Promise((r) => setTimeout(r, 1500));
    // The early warning and the notification were late too until filed, and a sweep may have
    // announced them before the filings. So may the final report's clock as it stood then (a month
    // after the notification's own deadline, knownAt + 72 h, also past): a deadline that was missed
    // when swept. Every deadline is announced at most once, and the filing's clock is among them.
    const provisional = new Date(known.getTime() + 72 * HOUR);
    const p = new Date(provisional);
    p.setUTCMonth(provisional.getUTCMonth() + 1);
    if (p.getUTCDate() !== provisional.getUTCDate()) p.setUTCDate(0);
    const keys = (await breaches(other)).map((e) => e.data.key);
    expect(new Set(keys).size).toBe(keys.length);
    const finals = keys.filter((k) => k.startsWith('nis2:final-report:'));
    expect(finals).toContain(`nis2:final-report:${final.dueAt}`);
    expect(finals.filter((k) => k !== `nis2:final-report:${final.dueAt}`)).toEqual(
      finals.length === 2 ? [`nis2:final-report:${p.toISOString()}`] : [],
    );
    expect(rows.length).toBeGreaterThanOrEqual(1);
  });

  it('announces DSARs due within 7 days and vendor contracts in their notice window, once each', async () => {
    const u = await createTenant(ts);
    const sub = await u.call('POST', '/v1/webhook-subscriptions', {
      body: { url: 'https://hooks.example.com/svc', eventTypes: ['dsar.deadline_approaching', 'vendor.contract_expiring'] },
    });
    expect(sub.status).toBe(201);
    const DAY = 24 * HOUR;
    const date = (d: Date) => d.toISOString().slice(0, 10);
    const days = (n: number) => new Date(Date.now() + n * DAY);
    const actions = async (action: string) => {
      const res = await u.call('POST', '/v1/audit-trail/query', { body: { action, limit: 100 } });
      return res.body.data as { resourceId: string; data: { key: string } }[];
    };
    const dsar = async (body: Record<string, unknown>) => {
      const res = await u.call('POST', '/v1/dsar/requests', { body: { kind: 'access', subject: { name: 'Jana Novak' }, ...body } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string; dueDate: string };
    };
    // GDPR received 27 days ago: due a month after receipt (the same day number, or the month's
    // last day), 3 or 4 days from now. CCPA received 40 days ago: due 45 days after, 5 days out.
    const received = days(-27);
    const gdpr = await dsar({ regime: 'gdpr', receivedAt: received.toISOString() });
    const due = new Date(`${date(received)}T00:00:00.000Z`);
    due.setUTCMonth(due.getUTCMonth() + 1);
    if (due.getUTCDate() !== received.getUTCDate()) due.setUTCDate(0);
    expect(gdpr.dueDate).toBe(date(due));
    const ccpa = await dsar({ regime: 'ccpa', kind: 'access', receivedAt: days(-40).toISOString() });
    expect(ccpa.dueDate).toBe(date(new Date(Date.parse(`${date(days(-40))}T00:00:00.000Z`) + 45 * DAY)));
    await dsar({ regime: 'gdpr' }); // received now: a month out, not announced

    const v = await u.call('POST', '/v1/vendor-risk/vendors', { body: { name: 'Acme Cloud', criticality: 'high' } });
    expect(v.status).toBe(201);
    const contract = async (endInDays: number) => {
      const res = await u.call('POST', '/v1/vendor-risk/contracts', {
        body: {
          vendorId: v.body.id,
          title: `Hosting ${endInDays}`,
          startDate: date(days(-100)),
          endDate: date(days(endInDays)),
          noticePeriodDays: 30,
          value: 1000,
          currency: 'EUR',
        },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body as { id: string; state: string; currentEndDate: string; noticeDeadline: string };
    };
    const soon = await contract(10);
    expect(soon.state).toBe('expiring');
    const later = await contract(200);
    expect(later.state).toBe('active');

    const approaching = await waitFor(
      () => actions('dsar.deadline_approaching'),
      (r) => r.length >= 2,
    );
    const expiring = await waitFor(
      () => actions('vendor.contract_expiring'),
      (r) => r.length >= 1,
    );
    await new Promise((r) => setTimeout(r, 1500));
    expect((await actions('dsar.deadline_approaching')).map((e) => `${e.resourceId} ${e.data.key}`).sort()).toEqual(
      [`${gdpr.id} due:${gdpr.dueDate}`, `${ccpa.id} due:${ccpa.dueDate}`].sort(),
    );
    expect((await actions('vendor.contract_expiring')).map((e) => `${e.resourceId} ${e.data.key}`)).toEqual([
      `${soon.id} end:${soon.currentEndDate}`,
    ]);
    expect(approaching.length + expiring.length).toBeGreaterThanOrEqual(3);
    // The webhook events carry the registry's data.
    for (const type of ['dsar.deadline_approaching', 'vendor.contract_expiring']) {
      const rows = await ts.server.db.prisma.webhookEvent.findMany({ where: { tenantId: u.tenantId, type } });
      expect(rows, type).toHaveLength(type === 'vendor.contract_expiring' ? 1 : 2);
      for (const r of rows) expect(getWebhookEventType(type)?.data.safeParse(r.data).success, type).toBe(true);
    }
    const [ev] = await ts.server.db.prisma.webhookEvent.findMany({ where: { tenantId: u.tenantId, type: 'vendor.contract_expiring' } });
    expect(ev?.data).toMatchObject({
      id: v.body.id,
      name: 'Acme Cloud',
      contractId: soon.id,
      endDate: soon.currentEndDate,
      noticeDeadline: soon.noticeDeadline,
    });
  });

  it('reads each source a row at a time and finds what it finds a page at a time', async () => {
    // The records of the tests above: late disclosures, DSARs due soon, an expiring contract.
    const now = new Date();
    const found = async (pageSize?: number) => {
      const out: string[] = [];
      for (const source of DEADLINE_SOURCES) {
        for (const a of await source.scan(ts.server.db.prisma, now, pageSize)) out.push(`${a.kind} ${a.tenantId} ${a.subjectId} ${a.key}`);
      }
      return out.sort();
    };
    const whole = await found();
    expect(new Set(whole.map((a) => a.split(' ')[0]))).toEqual(new Set(['incident_disclosure', 'dsar_request', 'vendor_contract']));
    expect(await found(1)).toEqual(whole);
    expect(await found(2)).toEqual(whole);
  });
});
