import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/api.ts';
import { csrfOf, Jar } from './support/browser-jar.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';

/**
 * The web application ({app_url}) and the operator console ({admin_url}) at the HTTP level: their
 * own ports, cookie flags, CSRF refusals, one-time sign-in links, roles (a viewer sees, an owner or
 * admin manages, 403 otherwise), tenant isolation, and that keys made and revoked here are the
 * API's keys, audited like the API's. The browser flows are in web.test.ts.
 */

const linkOf = (html: string) => {
  const m = /(http:\/\/[^<\s"]+\/sign-in\/link\?token=[\w-]+)/.exec(html);
  if (!m) throw new Error('no sign-in link in the page');
  return new URL(m[1] as string);
};

let ts: TestServer;
let appUrl: string;
let adminUrl: string;
let tenantId: string;
let ownerToken: string;

async function inviteAndSetPassword(operator: Jar, tenant: string, email: string, role: string, password = 'correct horse battery staple') {
  const page = await operator.submit(`/tenants/${tenant}`, `/tenants/${tenant}/people`, { email, role });
  expect(page.status).toBe(201);
  const link = linkOf(page.text);
  expect(link.origin).toBe(appUrl);
  const person = new Jar(appUrl);
  const form = await person.get(link.pathname + link.search);
  expect(form.status).toBe(200);
  const set = await person.req('POST', '/sign-in/link', {
    _csrf: csrfOf(form.text),
    token: link.searchParams.get('token') as string,
    password,
    confirm: password,
  });
  expect(set.status).toBe(303);
  expect(set.headers.get('location')).toBe('/overview');
  return { person, link };
}

async function signInOperator(): Promise<Jar> {
  const op = new Jar(adminUrl);
  const res = await op.submit('/sign-in', '/sign-in', { token: ts.operatorToken, next: '/tenants' });
  expect(res.status).toBe(303);
  return op;
}

beforeAll(async () => {
  ts = await startIsolatedTestServer({ SVC_WEB_PORT: '0', SVC_CONSOLE_PORT: '0' });
  appUrl = ts.server.appUrl as string;
  adminUrl = ts.server.adminUrl as string;
  tenantId = ts.server.firstStart?.tenantId as string;
  ownerToken = ts.server.firstStart?.apiKey as string;
});
afterAll(async () => {
  await ts?.close();
});

describe('the two surfaces', () => {
  it('listen on their own ports, the console on 127.0.0.1, and are off with their switches', async () => {
    expect(appUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(adminUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(new Set([ts.url, appUrl, adminUrl]).size).toBe(3);
    expect(ts.server.config.console.host).toBe('127.0.0.1');
    const off = await startIsolatedTestServer({ SVC_WEB: 'false', SVC_CONSOLE: '0' });
    try {
      expect(off.server.appUrl).toBeUndefined();
      expect(off.server.adminUrl).toBeUndefined();
    } finally {
      await off.close();
    }
  });

  it('send security headers, no-store, and cookies that are httpOnly and SameSite=Strict (not Secure over http)', async () => {
    for (const base of [appUrl, adminUrl]) {
      const jar = new Jar(base);
      const res = await jar.get('/sign-in');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(jar.setCookies.length).toBeGreaterThanOrEqual(2);
      for (const c of jar.setCookies) {
        expect(c).toMatch(/HttpOnly/i);
        expect(c).toMatch(/SameSite=Strict/i);
        expect(c).not.toMatch(/Secure/i);
      }
      const css = await fetch(`${base}/assets/app.css`);
      expect(css.status).toBe(200);
      expect(await css.text()).toContain(':focus-visible');
    }
  });

  it('ask for sign-in, and refuse a POST without the CSRF token or with a forged one (403)', async () => {
    const web = new Jar(appUrl);
    const r = await web.get('/settings/api-keys');
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/sign-in?next=%2Fsettings%2Fapi-keys');
    await web.get('/sign-in');
    expect((await web.req('POST', '/sign-in', { email: 'a@b.example', password: 'x' })).status).toBe(403);
    expect((await web.req('POST', '/sign-in', { _csrf: 'forged.value', email: 'a@b.example', password: 'x' })).status).toBe(403);
    // A token of another browser (another pre-session) does not fit this one.
    const other = new Jar(appUrl);
    const otherToken = csrfOf((await other.get('/sign-in')).text);
    expect((await web.req('POST', '/sign-in', { _csrf: otherToken, email: 'a@b.example', password: 'x' })).status).toBe(403);

    const op = new Jar(adminUrl);
    expect((await op.get('/dead-letters')).status).toBe(303);
    await op.get('/sign-in');
    const noCsrf = await op.req('POST', '/sign-in', { token: ts.operatorToken });
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.text).toContain('The form expired');
    expect(op.cookies.has('svc_console_sid')).toBe(false);
  });

  it('refuse a wrong operator token and a wrong password, and throttle repeated failures', async () => {
    const op = new Jar(adminUrl);
    const bad = await op.submit('/sign-in', '/sign-in', { token: `svc_op_${'x'.repeat(32)}` });
    expect(bad.status).toBe(401);
    const web = new Jar(appUrl);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await web.submit('/sign-in', '/sign-in', { email: 'nobody@x.example', password: 'wrong password!' })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});

describe('people, sessions and API keys', () => {
  let operator: Jar;
  let owner: Jar;
  let viewer: Jar;

  beforeAll(async () => {
    operator = await signInOperator();
    owner = (await inviteAndSetPassword(operator, tenantId, 'Owner@Example.test', 'owner')).person;
    viewer = (await inviteAndSetPassword(operator, tenantId, 'viewer@example.test', 'viewer')).person;
  });

  it('sets the session cookie httpOnly and SameSite=Strict, stores only its hash, and a sign-in link works once', async () => {
    const sid = owner.cookies.get('svc_web_sid') as string;
    expect(sid).toMatch(/^[\w-]{40,}$/);
    const rows = await ts.server.db.prisma.webSession.findMany({ where: { tenantId } });
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.some((r) => r.idHash === sid)).toBe(false);
    expect(rows.find((r) => r.role === 'viewer')).toBeTruthy();
    const user = await ts.server.db.prisma.webUser.findUnique({ where: { email: 'owner@example.test' } });
    expect(user?.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);

    const again = await inviteAndSetPassword(operator, tenantId, 'once@example.test', 'editor');
    const reuse = new Jar(appUrl);
    const page = await reuse.get(again.link.pathname + again.link.search);
    expect(page.status).toBe(404);
  });

  it('signs in with email and password (any case), and the overview shows the tenant', async () => {
    const web = new Jar(appUrl);
    const res = await web.submit('/sign-in', '/sign-in', {
      email: 'OWNER@example.test',
      password: 'correct horse battery staple',
      next: '/overview',
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/overview');
    const overview = await web.get('/overview');
    expect(overview.status).toBe(200);
    expect(overview.text).toContain('Activated frameworks');
    expect(overview.text).toContain('Recent audit events');
    expect(overview.text).toContain('web_session.signed_in');
  });

  it('an owner creates a key (shown once) the API accepts, and revokes it after a confirmation', async () => {
    const created = await owner.submit('/settings/api-keys/new', '/settings/api-keys', {
      name: 'ci pipeline',
      role: 'editor',
      scopes: '',
      expiresAt: '',
    });
    expect(created.status).toBe(201);
    const token = /<output id="new-token"[^>]*>(svc_[a-z]+_[0-9A-Za-z]+)<\/output>/.exec(created.text)?.[1] as string;
    expect(token).toMatch(/^svc_test_/);
    expect((await call(ts.url, 'GET', '/v1/webhook-subscriptions', { token })).status).toBe(200);

    const list = await owner.get('/settings/api-keys');
    expect(list.text).toContain('ci pipeline');
    expect(list.text).not.toContain(token);
    const id = /data-key-id="(key_[0-9A-Z]+)">\s*<td data-label="Name">ci pipeline/.exec(list.text)?.[1] as string;
    expect(id).toBeTruthy();

    const confirm = await owner.get(`/settings/api-keys/${id}/revoke`);
    expect(confirm.status).toBe(200);
    expect(confirm.text).toContain('Yes, revoke the key');
    // Without confirm=yes nothing happens.
    expect((await owner.req('POST', `/settings/api-keys/${id}/revoke`, { _csrf: csrfOf(confirm.text) })).status).toBe(400);
    expect((await call(ts.url, 'GET', '/v1/webhook-subscriptions', { token })).status).toBe(200);
    const revoked = await owner.req('POST', `/settings/api-keys/${id}/revoke`, { _csrf: csrfOf(confirm.text), confirm: 'yes' });
    expect(revoked.status).toBe(303);
    expect((await call(ts.url, 'GET', '/v1/webhook-subscriptions', { token })).status).toBe(401);

    // Audited like the API's: the person's id as actor, the same actions.
    const trail = await call(ts.url, 'GET', '/v1/audit-trail/events?limit=50', { token: ownerToken });
    const user = await ts.server.db.prisma.webUser.findUnique({ where: { email: 'owner@example.test' } });
    const actions = (trail.body.data as { action: string; actor: string; resourceId: string }[]).filter((e) => e.resourceId === id);
    expect(actions.map((e) => e.action).sort()).toEqual(['api_key.created', 'api_key.revoked']);
    expect(actions.every((e) => e.actor === user?.id)).toBe(true);
  });

  it('an owner may not grant a role it is not allowed to, and bad input is refused with the form again', async () => {
    const bad = await owner.submit('/settings/api-keys/new', '/settings/api-keys', { name: 'x', role: 'superuser' });
    expect(bad.status).toBe(422);
    const scopes = await owner.submit('/settings/api-keys/new', '/settings/api-keys', { name: 'x', role: 'viewer', scopes: 'not a scope' });
    expect(scopes.status).toBe(422);
    const past = await owner.submit('/settings/api-keys/new', '/settings/api-keys', { name: 'x', role: 'viewer', expiresAt: '2001-01-01' });
    expect(past.status).toBe(422);
    expect(past.text).toContain('must be in the future');
  });

  it('a viewer sees the keys but gets 403 on every change', async () => {
    const list = await viewer.get('/settings/api-keys');
    expect(list.status).toBe(200);
    expect(list.text).toContain('owners and admins create and revoke them');
    expect(list.text).not.toContain('Create an API key</a>');
    expect((await viewer.get('/settings/api-keys/new')).status).toBe(403);
    const key = await ts.server.db.prisma.apiKey.findFirstOrThrow({ where: { tenantId, revokedAt: null } });
    expect((await viewer.get(`/settings/api-keys/${key.id}/revoke`)).status).toBe(403);
    const csrf = csrfOf(list.text);
    expect((await viewer.req('POST', '/settings/api-keys', { _csrf: csrf, name: 'x', role: 'viewer' })).status).toBe(403);
    expect((await viewer.req('POST', `/settings/api-keys/${key.id}/revoke`, { _csrf: csrf, confirm: 'yes' })).status).toBe(403);
    expect((await ts.server.db.prisma.apiKey.findUniqueOrThrow({ where: { id: key.id } })).revokedAt).toBeNull();
  });

  it("another tenant's key is not found (404), never revoked", async () => {
    const other = await operator.submit('/tenants', '/tenants', { name: 'Other Ltd', tier: 'starter', env: 'live', region: '' });
    expect(other.status).toBe(201);
    const otherTenant = /\/tenants\/(ten_[0-9A-Z]+)/.exec(other.text)?.[1] as string;
    const otherKey = await ts.server.db.prisma.apiKey.findFirstOrThrow({ where: { tenantId: otherTenant } });
    expect((await owner.get(`/settings/api-keys/${otherKey.id}/revoke`)).status).toBe(404);
    const csrf = csrfOf((await owner.get('/settings/api-keys')).text);
    expect((await owner.req('POST', `/settings/api-keys/${otherKey.id}/revoke`, { _csrf: csrf, confirm: 'yes' })).status).toBe(404);
    expect((await ts.server.db.prisma.apiKey.findUniqueOrThrow({ where: { id: otherKey.id } })).revokedAt).toBeNull();
    // The people of one tenant cannot be invited into another.
    const clash = await operator.submit(`/tenants/${otherTenant}`, `/tenants/${otherTenant}/people`, {
      email: 'owner@example.test',
      role: 'owner',
    });
    expect(clash.status).toBe(422);
  });

  it('the operator changes a tier, audited, and the API applies it at once', async () => {
    const t = await call(ts.url, 'POST', '/v1/operator/tenants', {
      token: ts.operatorToken,
      body: { name: 'Tiered', tier: 'sandbox', env: 'test' },
    });
    const id = t.body.tenant.id as string;
    const res = await operator.submit(`/tenants/${id}`, `/tenants/${id}/tier`, { tier: 'growth' });
    expect(res.status).toBe(200);
    expect(res.text).toContain('Tier changed from sandbox to growth');
    expect((await ts.server.db.prisma.tenant.findUniqueOrThrow({ where: { id } })).tier).toBe('growth');
    const trail = await call(ts.url, 'GET', '/v1/audit-trail/events?limit=10', { token: t.body.apiKey.token });
    expect(trail.body.data.map((e: { action: string }) => e.action)).toContain('tenant.tier_changed');
  });

  it('signing out ends the session server-side: the old cookie no longer works', async () => {
    const web = new Jar(appUrl);
    await web.submit('/sign-in', '/sign-in', { email: 'viewer@example.test', password: 'correct horse battery staple' });
    const sid = web.cookies.get('svc_web_sid') as string;
    expect((await web.get('/overview')).status).toBe(200);
    const out = await web.submit('/overview', '/sign-out', {});
    expect(out.status).toBe(303);
    const stale = await fetch(`${appUrl}/overview`, { headers: { cookie: `svc_web_sid=${sid}` }, redirect: 'manual' });
    expect(stale.status).toBe(303);

    const op = await signInOperator();
    const opSid = op.cookies.get('svc_console_sid') as string;
    await op.submit('/tenants', '/sign-out', {});
    const staleOp = await fetch(`${adminUrl}/tenants`, { headers: { cookie: `svc_console_sid=${opSid}` }, redirect: 'manual' });
    expect(staleOp.status).toBe(303);
  });

  it('the console shows the dispatcher state and an empty dead-letter queue', async () => {
    const d = await operator.get('/dispatcher');
    expect(d.status).toBe(200);
    expect(d.text).toMatch(/id="pending">\d+</);
    expect(d.text).toContain('in flight');
    expect(d.text).toContain('oldest pending age');
    const q = await operator.get('/dead-letters?tenant=ten_nothing&type=tenant.created&since=2026-01-01T00:00');
    expect(q.status).toBe(200);
    expect(q.text).toContain('No dead-lettered delivery matches the filter');
    const confirm = await operator.get('/dead-letters/replay?since=2026-01-01T00:00');
    expect(confirm.text).toContain('Yes, replay 0');
  });
});
