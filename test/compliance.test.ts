import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

describe('compliance rail: the specification examples', () => {
  let t: TenantFixture;
  beforeAll(async () => {
    t = await createTenant(ts);
  });

  it('creates an assessment as draft with completion 0 and the stages of its type', async () => {
    const res = await t.call('POST', '/v1/compliance/assessments', {
      body: { type: 'fria', systemId: 'sys_credit_scoring_v2', jurisdiction: 'eu/de' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'svc.compliance.assessment',
      status: 'draft',
      completion: 0,
      systemId: 'sys_credit_scoring_v2',
    });
    expect(res.body.id).toMatch(/^asm_[0-9A-Z]{26}$/);
    // The stages of the FRIA recipe: Art. 27(1)(a)-(f) AI Act and the notification of Art. 27(3).
    expect(res.body.stages.map((s: { key: string }) => s.key)).toEqual([
      'scoping',
      'process',
      'period-frequency',
      'affected-persons',
      'risks',
      'oversight',
      'mitigation',
      'notification',
    ]);
    expect(res.body.stages.every((s: { status: string }) => s.status === 'pending')).toBe(true);

    const got = await t.call('GET', `/v1/compliance/assessments/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('stages follow the assessment type', async () => {
    const dpia = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'dpia', systemId: 'sys_hr', jurisdiction: 'eu/fr' } });
    // Art. 35(7)(a)-(d) GDPR between the screening and the consultation stages.
    expect(dpia.body.stages.map((s: { key: string }) => s.key)).toEqual([
      'screening',
      'description',
      'necessity',
      'risks',
      'measures',
      'consultation',
    ]);
  });

  it('a missing systemId is 422 validation_failed with a detail { field: systemId, issue: missing }', async () => {
    const res = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', jurisdiction: 'eu/de' } });
    const env = expectEnvelope(res, 422, 'validation_failed');
    expect(env.details).toContainEqual(expect.objectContaining({ field: 'systemId', issue: 'missing' }));
  });

  it('rejects unknown fields, bad enums and bad formats with stable issue words', async () => {
    const res = await t.call('POST', '/v1/compliance/assessments', {
      body: { type: 'astrology', systemId: 'ok', jurisdiction: 'germany', colour: 'red' },
    });
    const env = expectEnvelope(res, 422, 'validation_failed');
    const issues = Object.fromEntries(env.details.map((d: { field: string; issue: string }) => [d.field, d.issue]));
    expect(issues).toMatchObject({ type: 'invalid_value', jurisdiction: 'invalid_format', colour: 'unknown_field' });
    const list = await t.call('GET', '/v1/compliance/assessments?limit=200');
    expect(list.body.data.some((a: { jurisdiction: string }) => a.jurisdiction === 'germany')).toBe(false);
  });

  it('the jurisdiction rule is one: the OpenAPI pattern and the service agree on EU/DE, eu/de, eu and a bad value', async () => {
    const doc = JSON.parse(readFileSync(join(import.meta.dirname, '../packages/contract/openapi.json'), 'utf8'));
    const field = doc.components.schemas.CreateAssessmentRequest.properties.jurisdiction;
    // JSON Schema patterns are ECMA-262 regular expressions without flags: read as a client validator would.
    const pattern = new RegExp(field.pattern, 'u');
    expect(field.description).toMatch(/case is ignored/i);
    expect(field.description).toMatch(/lower case/i);
    const cases: [string, boolean][] = [
      ['EU/DE', true],
      ['eu/de', true],
      ['Eu/dE', true],
      ['eu', false],
      ['germany', false],
      ['eu/deu', false],
      ['eu/d3', false],
    ];
    for (const [value, ok] of cases) {
      expect(pattern.test(value), `document pattern on ${value}`).toBe(ok);
      const res = await t.call('POST', '/v1/compliance/assessments', {
        body: { type: 'dpia', systemId: 'sys_juris', jurisdiction: value },
      });
      if (ok) {
        expect(res.status, `${value}: ${JSON.stringify(res.body)}`).toBe(201);
        expect(res.body.jurisdiction).toBe(value.toLowerCase());
      } else {
        const env = expectEnvelope(res, 422, 'validation_failed');
        expect(env.details).toContainEqual(expect.objectContaining({ field: 'jurisdiction', issue: 'invalid_format' }));
      }
    }
  });

  it('lists assessments newest first with filters', async () => {
    const other = await createTenant(ts);
    const a = await other.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: 'sys_a', jurisdiction: 'eu/de' } });
    const b = await other.call('POST', '/v1/compliance/assessments', { body: { type: 'dpia', systemId: 'sys_b', jurisdiction: 'eu/de' } });
    const all = await other.call('GET', '/v1/compliance/assessments');
    expect(all.body.data.map((x: { id: string }) => x.id)).toEqual([b.body.id, a.body.id]);
    expect(all.body.cursor).toBeNull();
    const onlyDpia = await other.call('GET', '/v1/compliance/assessments?type=dpia');
    expect(onlyDpia.body.data.map((x: { id: string }) => x.id)).toEqual([b.body.id]);
    const bySystem = await other.call('GET', '/v1/compliance/assessments?systemId=sys_a');
    expect(bySystem.body.data.map((x: { id: string }) => x.id)).toEqual([a.body.id]);
  });

  it('lists frameworks with the activation state of the tenant', async () => {
    const fresh = await createTenant(ts);
    const before = await fresh.call('GET', '/v1/compliance/frameworks');
    expect(before.status).toBe(200);
    const ids = before.body.data.map((f: { id: string }) => f.id);
    expect(ids).toEqual(expect.arrayContaining(['eu-ai-act', 'gdpr', 'iso-iec-42001']));
    expect(before.body.data.every((f: { activated: boolean }) => !f.activated)).toBe(true);

    await fresh.call('POST', '/v1/frameworks/gdpr/activate');
    const after = await fresh.call('GET', '/v1/compliance/frameworks?activated=true');
    expect(after.body.data).toHaveLength(1);
    expect(after.body.data[0]).toMatchObject({ id: 'gdpr', activated: true, dictionaryVersion: 'gdpr@1.0.0' });
    expect(after.body.data[0].obligations.total).toBeGreaterThan(50);
  });

  it('pages the framework list by id, each filter alike, with the counts of the tenant only', async () => {
    const [t1, t2] = [await createTenant(ts), await createTenant(ts)];
    await t1.call('POST', '/v1/frameworks/gdpr/activate');
    await t1.call('POST', '/v1/frameworks/nis2/activate');
    const walk = async (filter: string) => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { status: number; body: { data: { id: string }[]; cursor: string | null } } = await t1.call(
          'GET',
          `/v1/compliance/frameworks?limit=4${filter}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        expect(page.status).toBe(200);
        expect(page.body.data.length).toBeLessThanOrEqual(4);
        ids.push(...page.body.data.map((f) => f.id));
        cursor = page.body.cursor;
      } while (cursor !== null);
      return ids;
    };
    const whole = (await t1.call('GET', '/v1/compliance/frameworks?limit=200')).body.data as { id: string; activated: boolean }[];
    const wholeIds = whole.map((f) => f.id);
    expect(wholeIds.length).toBeGreaterThan(8);
    expect([...wholeIds].sort()).toEqual(wholeIds);
    expect(await walk('')).toEqual(wholeIds);
    expect(await walk('&activated=true')).toEqual(['gdpr', 'nis2']);
    expect(await walk('&activated=false')).toEqual(wholeIds.filter((id) => id !== 'gdpr' && id !== 'nis2'));

    // One tenant's activations and obligations are not another's.
    const other = (await t2.call('GET', '/v1/compliance/frameworks?activated=true')).body;
    expect(other).toEqual({ data: [], cursor: null });
    const gdpr = whole.find((f) => f.id === 'gdpr') as unknown as { obligations: { total: number; open: number } };
    expect(gdpr.obligations.open).toBe(gdpr.obligations.total);
    const gdprOfOther = (await t2.call('GET', '/v1/compliance/frameworks?limit=200')).body.data.find(
      (f: { id: string }) => f.id === 'gdpr',
    );
    expect(gdprOfOther).toMatchObject({ activated: false, dictionaryVersion: null, activatedAt: null, obligations: { total: 0, open: 0 } });
  });
});

describe('evidence and attestations', () => {
  let t: TenantFixture;
  beforeAll(async () => {
    t = await createTenant(ts);
    await t.call('POST', '/v1/frameworks/eu-ai-act/activate');
  });

  it('records evidence linked to controls of an activated framework', async () => {
    const controls = await t.call('GET', '/v1/frameworks/eu-ai-act/controls?limit=2');
    const [c1, c2] = controls.body.data.map((c: { id: string }) => c.id);
    const res = await t.call('POST', '/v1/compliance/evidence', {
      body: {
        title: 'Risk procedure',
        kind: 'policy',
        controlIds: [c1, c2],
        sha256: 'a'.repeat(64),
        uri: 'https://files.example.com/rm.pdf',
        expiresAt: '2030-01-01T00:00:00.000Z',
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ object: 'svc.compliance.evidence', controlIds: [c1, c2], kind: 'policy' });
    const byControl = await t.call('GET', `/v1/compliance/evidence?controlId=${c2}`);
    expect(byControl.body.data.map((e: { id: string }) => e.id)).toContain(res.body.id);
    expect((await t.call('GET', `/v1/compliance/evidence/${res.body.id}`)).body).toEqual(res.body);
  });

  it('refuses controls that are not in an activated framework, and bad artefact metadata', async () => {
    const unknown = await t.call('POST', '/v1/compliance/evidence', { body: { title: 'x', kind: 'log', controlIds: ['GDPR-LAW-01'] } });
    const env = expectEnvelope(unknown, 422, 'validation_failed');
    expect(env.details[0]).toMatchObject({ field: 'controlIds.0', issue: 'invalid_value' });
    const bad = await t.call('POST', '/v1/compliance/evidence', {
      body: { title: '', kind: 'log', controlIds: [], sha256: 'XYZ', uri: 'ftp://x', collectedAt: 'yesterday' },
    });
    const fields = expectEnvelope(bad, 422, 'validation_failed').details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['title', 'controlIds', 'sha256', 'uri', 'collectedAt']));
    const order = await t.call('POST', '/v1/compliance/evidence', {
      body: { title: 't', kind: 'log', controlIds: ['AIA-RMS-01'], collectedAt: '2026-01-02T00:00:00Z', expiresAt: '2026-01-01T00:00:00Z' },
    });
    expect(expectEnvelope(order, 422, 'validation_failed').details[0].field).toBe('expiresAt');
  });

  it('refuses evidence collected in the future (a minute of clock slack), and records none', async () => {
    const before = (await t.call('GET', '/v1/compliance/evidence?limit=200')).body.data.length;
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString();
    const future = await t.call('POST', '/v1/compliance/evidence', {
      body: { title: 'Collected tomorrow', kind: 'log', controlIds: ['AIA-RMS-01'], collectedAt: inAnHour },
    });
    expect(expectEnvelope(future, 422, 'validation_failed').details).toEqual([
      { field: 'collectedAt', issue: 'invalid_value', message: 'collectedAt is in the future.' },
    ]);
    expect((await t.call('GET', '/v1/compliance/evidence?limit=200')).body.data.length).toBe(before);
    // A client whose clock runs a few seconds fast is not refused.
    const fast = await t.call('POST', '/v1/compliance/evidence', {
      body: {
        title: 'Collected just now',
        kind: 'log',
        controlIds: ['AIA-RMS-01'],
        collectedAt: new Date(Date.now() + 10_000).toISOString(),
      },
    });
    expect(fast.status).toBe(201);
  });

  it('attests a control and an assessment, naming who, when and what', async () => {
    const control = (await t.call('GET', '/v1/frameworks/eu-ai-act/controls?limit=1')).body.data[0].id;
    const auditorToken = await t.key('auditor');
    const attester = { name: 'Dana Keller', email: 'dana@example.com', title: 'Head of AI Governance' };
    const res = await t.call('POST', '/v1/compliance/attestations', {
      token: auditorToken,
      body: { subject: { type: 'control', id: control }, statement: 'Operated as documented in Q3.', attester },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ subject: { type: 'control', id: control }, attester, statement: 'Operated as documented in Q3.' });
    expect(Date.parse(res.body.attestedAt)).toBeLessThanOrEqual(Date.now());

    const asm = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: 's', jurisdiction: 'eu/de' } });
    const onAsm = await t.call('POST', '/v1/compliance/attestations', {
      token: auditorToken,
      body: { subject: { type: 'assessment', id: asm.body.id }, statement: 'Reviewed and approved.', attester },
    });
    expect(onAsm.status).toBe(201);
    const list = await t.call('GET', `/v1/compliance/attestations?subjectType=assessment&subjectId=${asm.body.id}`);
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([onAsm.body.id]);

    const missing = await t.call('POST', '/v1/compliance/attestations', {
      token: auditorToken,
      body: { subject: { type: 'assessment', id: 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R' }, statement: 'Reviewed and approved.', attester },
    });
    expectEnvelope(missing, 404, 'not_found');
    const future = await t.call('POST', '/v1/compliance/attestations', {
      token: auditorToken,
      body: {
        subject: { type: 'control', id: control },
        statement: 'Reviewed and approved.',
        attester,
        attestedAt: '2999-01-01T00:00:00Z',
      },
    });
    // The same error as every other moment a client states (platform/moments.ts).
    expect(expectEnvelope(future, 422, 'validation_failed').details).toEqual([
      { field: 'attestedAt', issue: 'invalid_value', message: 'attestedAt is in the future.' },
    ]);
  });

  it('an editor may not attest, an auditor may not write evidence', async () => {
    const editor = await t.key('editor');
    const auditor = await t.key('auditor');
    const attest = await t.call('POST', '/v1/compliance/attestations', {
      token: editor,
      body: {
        subject: { type: 'control', id: 'AIA-RMS-01' },
        statement: 'Operated as documented.',
        attester: { name: 'x', email: 'x@example.com' },
      },
    });
    expect(expectEnvelope(attest, 403, 'forbidden').message).toContain('compliance:attest');
    const write = await t.call('POST', '/v1/compliance/evidence', {
      token: auditor,
      body: { title: 't', kind: 'log', controlIds: ['AIA-RMS-01'] },
    });
    expect(expectEnvelope(write, 403, 'forbidden').details).toEqual([{ field: 'permission', issue: 'compliance:write' }]);
  });
});
