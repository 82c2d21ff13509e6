import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages, createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

const tag = () => Math.random().toString(36).slice(2, 8);

async function person(t: TenantFixture, name: string, roleIds: string[] = []): Promise<string> {
  const res = await t.call('POST', '/v1/stakeholders/users', {
    body: { name, email: `${name.toLowerCase()}.${tag()}@example.com`, roleIds },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as string;
}

async function role(t: TenantFixture, name: string): Promise<string> {
  const res = await t.call('POST', '/v1/stakeholders/roles', { body: { name: `${name} ${tag()}` } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

async function activate(t: TenantFixture, framework: string): Promise<string[]> {
  const act = await t.call('POST', `/v1/frameworks/${framework}/activate`, { body: {} });
  expect([200, 201]).toContain(act.status);
  const controls = await collectPages<{ id: string }>(t, `/v1/frameworks/${framework}/controls`);
  expect(controls.length).toBeGreaterThan(2);
  return controls.map((c) => c.id);
}

async function assign(t: TenantFixture, body: Record<string, unknown>) {
  return t.call('POST', '/v1/stakeholders/assignments', { body });
}

describe('stakeholders: people, roles and approval chains', () => {
  it('adds people with roles, refuses a taken email (409) and unknown roles (422), and deactivates', async () => {
    const t = await createTenant(ts, { tier: 'sandbox', rateLimitPerSecond: 100_000 });
    const dpo = await role(t, 'DPO');
    const res = await t.call('POST', '/v1/stakeholders/users', { body: { name: 'Ines', email: 'Ines@Example.com', roleIds: [dpo] } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'svc.stakeholders.user', email: 'ines@example.com', status: 'active', roleIds: [dpo] });
    expectEnvelope(await t.call('POST', '/v1/stakeholders/users', { body: { name: 'Other', email: 'ines@example.com' } }), 409, 'conflict');
    const bad = await t.call('POST', '/v1/stakeholders/users', {
      body: { name: 'X', email: 'x@example.com', roleIds: ['rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R'] },
    });
    expect(expectEnvelope(bad, 422, 'validation_failed').details[0].field).toBe('roleIds[0]');
    const off = await t.call('POST', `/v1/stakeholders/users/${res.body.id}/deactivate`, { body: {} });
    expect(off.body.status).toBe('inactive');
    expect(
      expectEnvelope(await t.call('POST', `/v1/stakeholders/users/${res.body.id}/deactivate`, { body: {} }), 409, 'conflict').message,
    ).toContain('inactive');
    // An inactive person cannot approve in a chain.
    const chain = await t.call('POST', '/v1/stakeholders/approval-chains', { body: { name: 'Policy', approverIds: [res.body.id] } });
    expect(expectEnvelope(chain, 422, 'validation_failed').details[0].field).toBe('approverIds[0]');
  });
});

describe('stakeholders: assignments', () => {
  it('validates the person, role and control, and allows one accountable per control and system', async () => {
    const t = await createTenant(ts);
    const controls = await activate(t, 'eu-ai-act');
    const [c1] = controls as [string];
    const owner = await role(t, 'Model owner');
    const ines = await person(t, 'Ines', [owner]);
    const tom = await person(t, 'Tom');
    const base = { personId: ines, roleId: owner, raci: 'accountable', systemId: 'sys_a', control: c1 };

    const unknownPerson = await assign(t, { ...base, personId: 'usr_01JD3Z8W2M6Q4X9V7K5T1B0N3R' });
    expect(expectEnvelope(unknownPerson, 422, 'validation_failed').details[0].field).toBe('personId');
    const unknownRole = await assign(t, { ...base, roleId: 'rol_01JD3Z8W2M6Q4X9V7K5T1B0N3R' });
    expect(expectEnvelope(unknownRole, 422, 'validation_failed').details[0].field).toBe('roleId');
    const unknownControl = await assign(t, { ...base, control: 'NOT-A-CONTROL' });
    expect(expectEnvelope(unknownControl, 422, 'validation_failed').details[0].field).toBe('control');
    const neither = await assign(t, { personId: ines, roleId: owner, raci: 'informed' });
    expect(expectEnvelope(neither, 422, 'validation_failed').details[0].field).toBe('systemId');
    expectEnvelope(await assign(t, { ...base, raci: 'owner' }), 422, 'validation_failed');

    const first = await assign(t, base);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      object: 'svc.stakeholders.assignment',
      status: 'active',
      raci: 'accountable',
      systemId: 'sys_a',
      control: c1,
    });
    expect(first.body.id).toMatch(/^asg_/);

    // A second accountable for the same control of the same system: 409, naming the holder.
    const second = await assign(t, { ...base, personId: tom });
    expect(expectEnvelope(second, 409, 'conflict').message).toContain(first.body.id);
    // Another system, or the control across systems, or another letter: fine.
    expect((await assign(t, { ...base, personId: tom, systemId: 'sys_b' })).status).toBe(201);
    expect((await assign(t, { ...base, personId: tom, systemId: undefined })).status).toBe(201);
    expect((await assign(t, { ...base, personId: tom, raci: 'responsible' })).status).toBe(201);

    // Removing the first frees the place; removing twice is a 409 naming the state.
    const removed = await t.call('POST', `/v1/stakeholders/assignments/${first.body.id}/remove`, { body: { reason: 'left the team' } });
    expect(removed.body.status).toBe('removed');
    expect(
      expectEnvelope(await t.call('POST', `/v1/stakeholders/assignments/${first.body.id}/remove`, { body: {} }), 409, 'conflict').message,
    ).toContain('removed');
    expect((await assign(t, { ...base, personId: tom })).status).toBe(201);

    // An inactive person cannot be assigned.
    await t.call('POST', `/v1/stakeholders/users/${ines}/deactivate`, { body: {} });
    const inactive = await assign(t, { ...base, raci: 'informed' });
    expect(expectEnvelope(inactive, 422, 'validation_failed').message).toContain('inactive');

    // Filters.
    const sysB = await collectPages<{ systemId: string }>(t, '/v1/stakeholders/assignments?systemId=sys_b');
    expect(sysB.map((a) => a.systemId)).toEqual(['sys_b']);
    const tomAccountable = await collectPages<{ personId: string; raci: string }>(
      t,
      `/v1/stakeholders/assignments?personId=${tom}&raci=accountable`,
    );
    expect(tomAccountable).toHaveLength(3);
    expect((await collectPages(t, '/v1/stakeholders/assignments?status=removed')).length).toBe(1);

    // Tenancy.
    const other = await createTenant(ts);
    expectEnvelope(await other.call('GET', `/v1/stakeholders/assignments/${first.body.id}`), 404, 'not_found');
    expectEnvelope(await other.call('POST', `/v1/stakeholders/assignments/${first.body.id}/remove`, { body: {} }), 404, 'not_found');
    const theirs = await assign(other, { ...base, personId: tom });
    expect(expectEnvelope(theirs, 422, 'validation_failed').details[0].field).toBe('personId');
  });
});

describe('stakeholders: the same identity at once', () => {
  it('one person per email, one role per name and one accountable person per system and control, also when sent at once', async () => {
    const t = await createTenant(ts, { rateLimitPerSecond: 100_000 });
    const statuses = async (calls: Promise<{ status: number }>[]) => (await Promise.all(calls)).map((r) => r.status).sort();
    const email = `same.${tag()}@example.com`;
    expect(
      await statuses(Array.from({ length: 4 }, () => t.call('POST', '/v1/stakeholders/users', { body: { name: 'Ines Duarte', email } }))),
    ).toEqual([201, 409, 409, 409]);
    const name = `Data protection officer ${tag()}`;
    expect(
      await statuses(
        Array.from({ length: 4 }, (_, i) =>
          t.call('POST', '/v1/stakeholders/roles', { body: { name: i % 2 ? name.toUpperCase() : name } }),
        ),
      ),
    ).toEqual([201, 409, 409, 409]);
    const r = await role(t, 'Owner');
    const people = await Promise.all([person(t, 'Ana', [r]), person(t, 'Ben', [r]), person(t, 'Cai', [r])]);
    const systemId = `sys_${tag()}`;
    const accountable = (personId: string) => assign(t, { personId, roleId: r, raci: 'accountable', systemId });
    expect(await statuses(people.map(accountable))).toEqual([201, 409, 409]);
    const held = await t.call('GET', `/v1/stakeholders/assignments?limit=200`);
    expect(
      held.body.data.filter((a: { systemId: string; raci: string }) => a.systemId === systemId && a.raci === 'accountable'),
    ).toHaveLength(1);
  });
});

describe('stakeholders: RACI', () => {
  it('computes rows from the assignments, reports gaps, leaves inactive people out, and follows the data', async () => {
    const t = await createTenant(ts);
    const r = await role(t, 'Risk');
    const ana = await person(t, 'Ana', [r]);
    const bob = await person(t, 'Bob', [r]);
    const cem = await person(t, 'Cem', [r]);

    // The answer is the array of RACI rows; `gaps` are the rows with `gap: 'no_accountable'`.
    type Row = {
      control: string;
      responsible: string | null;
      accountable: string | null;
      accountableId: string | null;
      responsibleIds: string[];
      consulted: string[];
      informed: string[];
      frameworks: string[];
      systemId: string;
      gap: string | null;
      people: Record<string, any>;
    };
    const raci = async (query = 'systemId=sys_a') => {
      const res = await t.call<Row[]>('GET', `/v1/stakeholders/raci?${query}`);
      expect(res.status).toBe(200);
      expect(Array.isArray(res.body)).toBe(true);
      return res.body;
    };
    const gaps = (rows: Row[]) => rows.filter((x) => x.gap === 'no_accountable').map((x) => x.control);

    // Without activated frameworks: only the assigned controls. Activation is needed to assign a control.
    expect(await raci()).toEqual([]);
    expectEnvelope(await t.call('GET', '/v1/stakeholders/raci'), 422, 'validation_failed');

    const controls = await activate(t, 'eu-ai-act');
    const [c1, c2, c3] = controls as [string, string, string];
    const all = await raci();
    expect(all.map((row) => row.control)).toEqual([...controls].sort());
    expect(gaps(all)).toHaveLength(controls.length);
    expect(
      all.every(
        (row) => row.accountable === null && row.accountableId === null && row.systemId === 'sys_a' && row.frameworks[0] === 'eu-ai-act',
      ),
    ).toBe(true);

    const a1 = await assign(t, { personId: ana, roleId: r, raci: 'accountable', systemId: 'sys_a', control: c1 });
    await assign(t, { personId: bob, roleId: r, raci: 'responsible', systemId: 'sys_a', control: c1 });
    await assign(t, { personId: cem, roleId: r, raci: 'consulted', systemId: 'sys_a', control: c1 });
    await assign(t, { personId: cem, roleId: r, raci: 'informed', systemId: 'sys_a' });
    // Bob is accountable for c2 across every system; another system's assignment does not count here.
    await assign(t, { personId: bob, roleId: r, raci: 'accountable', control: c2 });
    await assign(t, { personId: ana, roleId: r, raci: 'accountable', systemId: 'sys_other', control: c3 });

    const chart = await raci();
    const row = (c: string, rows = chart) => rows.find((x) => x.control === c) as Row;
    // `responsible` and `accountable` say who in words; the ids and the people in full are beside them.
    expect(row(c1)).toMatchObject({
      control: c1,
      responsible: 'Bob',
      accountable: 'Ana',
      responsibleIds: [bob],
      accountableId: ana,
      consulted: ['Cem'],
      informed: ['Cem'],
      gap: null,
      people: {
        accountable: { personId: ana, name: 'Ana', roleId: r, assignmentId: a1.body.id, scope: 'control' },
        responsible: [{ personId: bob, scope: 'control' }],
        consulted: [{ personId: cem }],
        informed: [{ personId: cem, scope: 'system' }],
      },
    });
    expect(row(c2)).toMatchObject({ accountable: 'Bob', accountableId: bob, people: { accountable: { scope: 'control_all_systems' } } });
    expect(row(c3)).toMatchObject({ accountable: null, accountableId: null, gap: 'no_accountable', responsible: null });
    expect(row(c3).people.informed).toEqual([expect.objectContaining({ personId: cem, scope: 'system' })]);
    expect(gaps(chart)).not.toContain(c1);
    expect(gaps(chart)).toContain(c3);
    expect(gaps(chart)).toHaveLength(controls.length - 2);

    // Two people responsible: both names, in name order, in one string; both ids.
    await assign(t, { personId: ana, roleId: r, raci: 'responsible', systemId: 'sys_a', control: c1 });
    expect(row(c1, await raci())).toMatchObject({ responsible: 'Ana, Bob', responsibleIds: [ana, bob] });

    // A system-wide accountable covers every control below the more specific ones: no gap is left.
    await assign(t, { personId: cem, roleId: r, raci: 'accountable', systemId: 'sys_a' });
    const covered = await raci();
    expect(gaps(covered)).toEqual([]);
    expect(row(c1, covered).accountableId).toBe(ana);
    expect(row(c3, covered)).toMatchObject({ accountable: 'Cem', people: { accountable: { personId: cem, scope: 'system' } } });

    // Deactivating Ana: c1 falls back to the system-wide accountable; deactivating Cem too leaves gaps, never invented.
    await t.call('POST', `/v1/stakeholders/users/${ana}/deactivate`, { body: {} });
    expect(row(c1, await raci()).accountableId).toBe(cem);
    await t.call('POST', `/v1/stakeholders/users/${cem}/deactivate`, { body: {} });
    const noCem = await raci();
    expect(row(c1, noCem)).toMatchObject({ accountable: null, consulted: [], gap: 'no_accountable', responsible: 'Bob' });
    expect(gaps(noCem)).toContain(c1);
    expect(gaps(noCem)).toHaveLength(controls.length - 1);

    // `framework` narrows to that activated framework; an inactive one is a 422.
    const gdpr = await activate(t, 'gdpr');
    expect((await raci()).length).toBe(new Set([...controls, ...gdpr]).size);
    expect((await raci('systemId=sys_a&framework=gdpr')).map((x) => x.control)).toEqual([...new Set(gdpr)].sort());
    expectEnvelope(await t.call('GET', '/v1/stakeholders/raci?systemId=sys_a&framework=iso-42001'), 422, 'validation_failed');
  });
});
