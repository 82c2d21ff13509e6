import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallResult, call, collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { Jar } from './support/browser-jar.ts';
import { svcInProcess } from './support/cli.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// The acting person of an approval step or a sign-off comes from the credential: one key cannot
// walk a chain of several people by naming each in turn, and a service key acts for no one.

let ts: TestServer;
beforeAll(async () => {
  // With the web application and the console: a web session binds keys only to its own person.
  ts = await startTestServer({ SVC_WEB_PORT: '0', SVC_CONSOLE_PORT: '0' });
});
afterAll(() => ts?.close());

type Json = Record<string, any>;
const tag = () => Math.random().toString(36).slice(2, 8);
const HOUR = 3_600_000;

async function person(t: TenantFixture, name: string): Promise<string> {
  const res = await t.call('POST', '/v1/stakeholders/users', { body: { name, email: `${name.toLowerCase()}.${tag()}@example.com` } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const as = (token: string, method: string, path: string, body: unknown): Promise<CallResult> => call(ts.url, method, path, { token, body });

/** The key records of a tenant, by the person they act for. */
async function keysByPerson(t: TenantFixture): Promise<Map<string | null, Json[]>> {
  const res = await call(ts.url, 'GET', `/v1/operator/keys?tenantId=${t.tenantId}&limit=200`, { token: ts.operatorToken });
  expect(res.status).toBe(200);
  const out = new Map<string | null, Json[]>();
  for (const k of res.body.data as Json[]) out.set(k.personId, [...(out.get(k.personId) ?? []), k]);
  return out;
}

async function trail(t: TenantFixture, resourceId: string): Promise<Json[]> {
  const res = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId, limit: 50 } });
  expect(res.status).toBe(200);
  return res.body.data;
}

describe('acting identity: keys bound to people', () => {
  it('creates a key bound to an active person of its tenant (audited, shown on the record); anyone else is 422', async () => {
    const t = await createTenant(ts, { tier: 'growth' });
    const ana = await person(t, 'Ana');
    const created = await call(ts.url, 'POST', '/v1/operator/keys', {
      token: ts.operatorToken,
      body: { tenantId: t.tenantId, role: 'admin', personId: ana },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ object: 'svc.operator.api_key', personId: ana, role: 'admin' });
    const service = await call(ts.url, 'POST', '/v1/operator/keys', {
      token: ts.operatorToken,
      body: { tenantId: t.tenantId, role: 'admin' },
    });
    expect(service.body.personId).toBeNull();
    const byPerson = await keysByPerson(t);
    expect(byPerson.get(ana)?.map((k) => k.id)).toEqual([created.body.id]);

    const events = await trail(t, created.body.id);
    expect(events).toEqual([expect.objectContaining({ action: 'api_key.created', data: expect.objectContaining({ personId: ana }) })]);

    // A person of another tenant, an unknown one, an inactive one: 422 naming personId.
    const other = await createTenant(ts, { tier: 'growth' });
    const stranger = await person(other, 'Stranger');
    const bob = await person(t, 'Bob');
    await t.call('POST', `/v1/stakeholders/users/${bob}/deactivate`, { body: {} });
    for (const personId of [stranger, 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R', bob]) {
      const res = await call(ts.url, 'POST', '/v1/operator/keys', {
        token: ts.operatorToken,
        body: { tenantId: t.tenantId, role: 'admin', personId },
      });
      expect(expectEnvelope(res, 422, 'validation_failed').details[0].field).toBe('personId');
    }
    const malformed = await call(ts.url, 'POST', '/v1/operator/keys', {
      token: ts.operatorToken,
      body: { tenantId: t.tenantId, role: 'admin', personId: 'ana' },
    });
    expectEnvelope(malformed, 422, 'validation_failed');
  });
});

describe('acting identity: the CLI', () => {
  it('svc keys create --person binds the key to that person; without it, a service key', async () => {
    const t = await createTenant(ts, { tier: 'growth' });
    const ana = await person(t, 'Ana');
    const env = { ...process.env, SVC_CREDENTIALS_FILE: '/nonexistent/credentials.json' };
    const cli = (args: string[]) => svcInProcess([...args, '--url', ts.url, '--key', ts.operatorToken], env);
    const bound = await cli(['keys', 'create', '--tenant', t.tenantId, '--role', 'admin', '--person', ana]);
    expect(bound.code, bound.stderr).toBe(0);
    expect(bound.stdout).toContain(`acts for ${ana}`);
    const service = await cli(['keys', 'create', '--tenant', t.tenantId, '--role', 'admin', '--json']);
    expect(JSON.parse(service.stdout).personId).toBeNull();
    const unknown = await cli(['keys', 'create', '--tenant', t.tenantId, '--role', 'admin', '--person', 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('personId');
    const list = await cli(['keys', 'list', '--tenant', t.tenantId]);
    expect(list.stdout).toContain('PERSONID');
    expect(list.stdout).toContain(ana);
  });
});

describe('acting identity: governance approvals', () => {
  it('one admin key cannot walk a two-person chain; two keys of two people complete it, and the trail names each', async () => {
    const t = await createTenant(ts, { tier: 'growth' });
    const ana = await person(t, 'Ana');
    const bob = await person(t, 'Bob');
    const chain = await t.call('POST', '/v1/stakeholders/approval-chains', { body: { name: 'Contracts', approverIds: [ana, bob] } });
    const opened = await t.call('POST', '/v1/governance/approvals', { body: { subject: 'Vendor contract', chainId: chain.body.id } });
    expect(opened.status).toBe(201);
    const id: string = opened.body.id;
    const approve = (token: string, body: Json = {}) => as(token, 'POST', `/v1/governance/approvals/${id}/approve`, body);

    // The attack: one admin key (a service key, bound to no one) names Ana, then Bob.
    const admin = await t.key('admin');
    for (const approverId of [ana, bob]) {
      const refused = expectEnvelope(await approve(admin, { approverId }), 403, 'forbidden');
      expect(refused.details).toEqual([{ field: 'authorization', issue: 'service_key' }]);
    }
    // Nor with the body left out, nor rejecting.
    expectEnvelope(await approve(admin), 403, 'forbidden');
    expectEnvelope(await as(admin, 'POST', `/v1/governance/approvals/${id}/reject`, {}), 403, 'forbidden');
    expect((await t.call('GET', `/v1/governance/approvals/${id}`)).body).toMatchObject({ status: 'pending', currentStep: 1, steps: [] });

    // Ana's own key takes step 1, then tries to name Bob for step 2: refused.
    const anaKey = await t.personKey(ana, 'admin');
    const s1 = await approve(anaKey, { approverId: ana, comment: 'Terms reviewed.' });
    expect(s1.status, JSON.stringify(s1.body)).toBe(200);
    expect(s1.body).toMatchObject({ status: 'pending', currentStep: 2 });
    const impersonate = expectEnvelope(await approve(anaKey, { approverId: bob }), 403, 'forbidden');
    expect(impersonate.details).toEqual([expect.objectContaining({ field: 'approverId', issue: 'not_acting_person' })]);
    expect(impersonate.message).toContain(ana);
    // Without naming anyone, Ana is not step 2's approver.
    expect(expectEnvelope(await approve(anaKey), 403, 'forbidden').message).toContain(bob);
    // A delegation from Bob to Ana would let one person approve both steps: a chain of two needs two.
    const delegation = await t.call('POST', '/v1/governance/delegations', {
      body: {
        fromPersonId: bob,
        toPersonId: ana,
        scope: 'approvals',
        validFrom: new Date(Date.now() - HOUR).toISOString(),
        validUntil: new Date(Date.now() + HOUR).toISOString(),
      },
    });
    expect(delegation.status).toBe(201);
    const twice = expectEnvelope(await approve(anaKey), 403, 'forbidden');
    expect(twice.details).toEqual([expect.objectContaining({ field: 'approverId', issue: 'already_approved' })]);
    expect((await t.call('GET', `/v1/governance/approvals/${id}`)).body.steps).toHaveLength(1);

    // Bob's key, with the body's approverId left out (it means "me"), completes the chain.
    const bobKey = await t.personKey(bob, 'admin');
    const s2 = await approve(bobKey);
    expect(s2.status, JSON.stringify(s2.body)).toBe(200);
    expect(s2.body.status).toBe('approved');
    expect(s2.body.steps.map((s: Json) => [s.approverId, s.actedBy])).toEqual([
      [ana, ana],
      [bob, bob],
    ]);

    // The trail names the person who acted, and the key each used.
    const keys = await keysByPerson(t);
    const keyOf = (p: string) => keys.get(p)?.[0]?.id;
    const steps = (await trail(t, id)).filter((e) => e.action !== 'approval.created');
    expect(steps.map((e) => [e.action, e.actor, e.data.credentialId]).sort()).toEqual(
      [
        ['approval.approved', bob, keyOf(bob)],
        ['approval.step_approved', ana, keyOf(ana)],
      ].sort(),
    );
  });

  it('a body naming an unknown person is 422; a key of an inactive person is 403; a one-person chain needs just that person', async () => {
    const t = await createTenant(ts, { tier: 'growth' });
    const ana = await person(t, 'Ana');
    const chain = await t.call('POST', '/v1/stakeholders/approval-chains', { body: { name: 'Solo', approverIds: [ana] } });
    const open = async () =>
      (await t.call('POST', '/v1/governance/approvals', { body: { subject: `Budget ${tag()}`, chainId: chain.body.id } })).body.id;
    const anaKey = await t.personKey(ana, 'admin');
    const a = await open();
    const unknown = await as(anaKey, 'POST', `/v1/governance/approvals/${a}/approve`, { approverId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R' });
    expect(expectEnvelope(unknown, 422, 'validation_failed').details[0].field).toBe('approverId');
    const done = await as(anaKey, 'POST', `/v1/governance/approvals/${a}/approve`, {});
    expect(done.body.status).toBe('approved');

    const b = await open();
    await t.call('POST', `/v1/stakeholders/users/${ana}/deactivate`, { body: {} });
    expect(expectEnvelope(await as(anaKey, 'POST', `/v1/governance/approvals/${b}/approve`, {}), 403, 'forbidden').message).toContain(
      'inactive',
    );
  });
});

describe('acting identity: risk sign-off', () => {
  it("only the owner's own key signs off; a service key or a key naming the owner is refused; the trail names the owner", async () => {
    const t = await createTenant(ts, { tier: 'growth' });
    const olga = await person(t, 'Olga');
    const pat = await person(t, 'Pat');
    const risk = await t.call('POST', '/v1/risk-register/risks', {
      body: { title: 'Biased scoring', domain: 'ai', inherentLikelihood: 4, inherentImpact: 4, ownerId: olga },
    });
    expect(risk.status, JSON.stringify(risk.body)).toBe(201);
    const signOff = (token: string, body: Json) => as(token, 'POST', '/v1/risk-register/sign-off', { riskId: risk.body.id, ...body });

    // The attack: an admin service key signs as the owner.
    const admin = await t.key('admin');
    const service = expectEnvelope(await signOff(admin, { signerId: olga }), 403, 'forbidden');
    expect(service.details).toEqual([{ field: 'authorization', issue: 'service_key' }]);
    expectEnvelope(await signOff(admin, {}), 403, 'forbidden');
    // Pat's key naming Olga: refused; Pat as himself: not the owner.
    const patKey = await t.personKey(pat, 'admin');
    const impersonate = expectEnvelope(await signOff(patKey, { signerId: olga }), 403, 'forbidden');
    expect(impersonate.details).toEqual([expect.objectContaining({ field: 'signerId', issue: 'not_acting_person' })]);
    const notOwner = expectEnvelope(await signOff(patKey, {}), 403, 'forbidden');
    expect(notOwner.details).toEqual([expect.objectContaining({ field: 'signerId', issue: 'not_accountable_owner' })]);
    expect((await t.call('GET', `/v1/risk-register/risks/${risk.body.id}`)).body.status).toBe('open');
    expect(await collectPages(t, `/v1/risk-register/sign-off?riskId=${risk.body.id}`)).toEqual([]);

    // Olga's own key signs, with signerId left out.
    const olgaKey = await t.personKey(olga, 'admin');
    const signed = await signOff(olgaKey, { statement: 'Accepted' });
    expect(signed.status, JSON.stringify(signed.body)).toBe(201);
    expect(signed.body).toMatchObject({ signerId: olga, statement: 'Accepted' });
    const olgaKeyId = (await keysByPerson(t)).get(olga)?.[0]?.id;
    expect(await trail(t, signed.body.id)).toEqual([
      expect.objectContaining({
        action: 'risk.signed_off',
        actor: olga,
        data: expect.objectContaining({ signerId: olga, credentialId: olgaKeyId }),
      }),
    ]);
  });
});

describe('acting identity: web sessions', () => {
  it("a manager's web session binds a new key to their own person (same email) or to none, never to another", async () => {
    const t = await createTenant(ts, { tier: 'growth' });
    const email = `wanda.${tag()}@example.com`;
    const wanda = await t.call('POST', '/v1/stakeholders/users', { body: { name: 'Wanda', email } });
    const bob = await person(t, 'Bob');

    // The operator invites Wanda as an admin of the web application; she sets her password.
    const op = new Jar(ts.server.adminUrl as string);
    expect((await op.submit('/sign-in', '/sign-in', { token: ts.operatorToken, next: '/tenants' })).status).toBe(303);
    const invited = await op.submit(`/tenants/${t.tenantId}`, `/tenants/${t.tenantId}/people`, { email, role: 'admin' });
    expect(invited.status).toBe(201);
    const link = new URL(/(http:\/\/[^<\s"]+\/sign-in\/link\?token=[\w-]+)/.exec(invited.text)?.[1] as string);
    const web = new Jar(ts.server.appUrl as string);
    const password = 'correct horse battery staple';
    const set = await web.submit(link.pathname + link.search, '/sign-in/link', {
      token: link.searchParams.get('token') as string,
      password,
      confirm: password,
    });
    expect(set.status).toBe(303);

    const form = await web.req('GET', '/settings/api-keys/new');
    expect(form.text).toContain(wanda.body.id);
    const create = (actsFor: string) =>
      web.submit('/settings/api-keys/new', '/settings/api-keys', { name: `k ${actsFor}`, role: 'admin', actsFor });
    // The attack: a manager binds a key to someone else (Bob), to approve as him.
    const other = await create(bob);
    expect(other.status).toBe(422);
    const mine = await create('me');
    expect(mine.status).toBe(201);
    const token = /<output id="new-token"[^>]*>(svc_[a-z]+_[0-9A-Za-z]+)<\/output>/.exec(mine.text)?.[1] as string;
    expect((await create('')).status).toBe(201);
    const keys = await keysByPerson(t);
    expect(keys.get(wanda.body.id)?.map((k) => k.name)).toEqual(['k me']);
    expect(keys.get(bob)).toBeUndefined();
    expect(keys.get(null)?.map((k) => k.name)).toContain('k');

    // That key approves as Wanda.
    const chain = await t.call('POST', '/v1/stakeholders/approval-chains', { body: { name: 'Solo', approverIds: [wanda.body.id] } });
    const a = await t.call('POST', '/v1/governance/approvals', { body: { subject: 'Laptop budget', chainId: chain.body.id } });
    const done = await as(token, 'POST', `/v1/governance/approvals/${a.body.id}/approve`, {});
    expect(done.body).toMatchObject({ status: 'approved', steps: [expect.objectContaining({ actedBy: wanda.body.id })] });

    // A web user with no person of that email can make service keys only.
    await t.call('POST', `/v1/stakeholders/users/${wanda.body.id}/deactivate`, { body: {} });
    expect((await web.req('GET', '/settings/api-keys/new')).text).not.toContain(wanda.body.id);
    expect((await create('me')).status).toBe(422);
  });
});
