import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyExportFile } from '../packages/cli/src/audit-file.ts';
import { readZip } from '../packages/cli/src/audit-pack.ts';
import type { ComposedReport } from '../packages/server/src/rails/reporting/compose.ts';
import { reportJobs } from '../packages/server/src/rails/reporting/jobs.ts';
import { renderReportPdf } from '../packages/server/src/rails/reporting/pdf.ts';
import { nextDue } from '../packages/server/src/rails/reporting/service.ts';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { svcInProcess } from './support/cli.ts';
import { startIsolatedTestServer, startTestServer, type TestServer } from './support/server.ts';

/**
 * The reporting rail end to end on a server that runs the background jobs (SVC_ROLE all): reports
 * rendered to real PDFs read back with a PDF parser, schedules whose ticks make one report per due
 * time, and the signed packs checked offline by the CLI, before and after tampering.
 */

const SYSTEM = 'sys_credit_scoring_v2';
const SYSTEM_NAME = 'Credit scoring engine';

let ts: TestServer & { databaseUrl: string | undefined };
let t: TenantFixture;
const dir = mkdtempSync(join(tmpdir(), 'svc-reports-'));

beforeAll(async () => {
  ts = await startIsolatedTestServer({ SVC_ROLE: 'all', SVC_JOBS_POLL_MS: '100' });
  t = await createTenant(ts, { name: 'Acme Lending GmbH' });
  // The tenant's records the reports are built from.
  expect((await t.call('POST', '/v1/frameworks/eu-ai-act/activate')).status).toBeLessThan(300);
  const profile = await t.call('PUT', `/v1/public-disclosure/systems/${SYSTEM}`, {
    body: {
      name: SYSTEM_NAME,
      purpose: 'Scores consumer credit applications.',
      provider: 'Acme Lending GmbH',
      role: 'provider_and_deployer',
      interactsWithPeople: false,
      generatesSyntheticContent: false,
    },
  });
  expect(profile.status, JSON.stringify(profile.body)).toBe(200);
  const asm = await t.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: SYSTEM, jurisdiction: 'eu/de' } });
  expect(asm.status, JSON.stringify(asm.body)).toBe(201);
  for (const body of [
    { title: 'Quality management manual v4', kind: 'policy', systemId: SYSTEM, controlIds: ['AIA-QMS-01'] },
    { title: 'Risk management procedure for lending models', kind: 'policy', systemId: SYSTEM, controlIds: ['AIA-RMS-01'] },
  ]) {
    const ev = await t.call('POST', '/v1/compliance/evidence', { body });
    expect(ev.status, JSON.stringify(ev.body)).toBe(201);
  }
  const risk = await t.call('POST', '/v1/risk-register/risks', {
    body: { title: 'Proxy discrimination in credit scores', domain: 'ai', inherentLikelihood: 4, inherentImpact: 5 },
  });
  expect(risk.status, JSON.stringify(risk.body)).toBe(201);
}, 120_000);
afterAll(() => ts?.close());

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

async function ready(who: TenantFixture, id: string) {
  return waitFor(`report ${id}`, async () => {
    const r = await who.call('GET', `/v1/reports/${id}`);
    return r.body.status === 'rendering' ? undefined : r.body;
  });
}

/** A binary download (the JSON helper would decode it as text). */
async function download(who: TenantFixture, path: string) {
  const res = await fetch(ts.url + path, { headers: { authorization: `Bearer ${who.token}` } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocumentProxy(new Uint8Array(bytes));
  const { text } = await extractText(pdf, { mergePages: true });
  return text;
}

/** The files of a zip by name (the CLI's reader: stored and deflated entries). */
function unzipSync(bytes: Uint8Array): Record<string, Uint8Array> {
  return Object.fromEntries(readZip(Buffer.from(bytes)));
}

/** A zip of stored entries, to rebuild a pack around a changed file. */
function zipSync(files: Record<string, Uint8Array>): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(files)) {
    const n = Buffer.from(name);
    const crc = crc32(data);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt32LE(crc, 14);
    head.writeUInt32LE(data.length, 18);
    head.writeUInt32LE(data.length, 22);
    head.writeUInt16LE(n.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(data.length, 20);
    dir.writeUInt32LE(data.length, 24);
    dir.writeUInt16LE(n.length, 28);
    dir.writeUInt32LE(offset, 42);
    locals.push(head, n, Buffer.from(data));
    central.push(dir, n);
    offset += 30 + n.length + data.length;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** A CLI command in this process (test/support/cli.ts). */
function svc(args: string[]) {
  return svcInProcess(args, { ...process.env, SVC_LOG_LEVEL: 'silent' });
}

describe('the PDF renderer', () => {
  const composed: ComposedReport = {
    template: 'board',
    templateId: 'pdf/board@1',
    title: 'Board report',
    audience: 'board of directors',
    tenantId: 'ten_TEST',
    systemId: 'sys_x',
    asOf: '2026-11-24T10:00:00.000Z',
    recommendedReviewers: ['chief-risk-officer', 'general-counsel'],
    draft: true,
    sections: [
      { heading: 'Posture', paragraphs: ['Where the organisation stands – with “quotes”.'] },
      {
        heading: 'Top risks',
        paragraphs: ['The highest residual scores.'],
        table: {
          columns: ['Risk', 'Score', 'Owner'],
          rows: Array.from({ length: 80 }, (_, i) => [
            `Risk number ${i + 1} with a long enough title to wrap in its cell`,
            String(25 - (i % 25)),
            'CRO',
          ]),
        },
      },
    ],
  } as ComposedReport;

  it('draws the title page, the sections and tables across pages, the same bytes every time', async () => {
    const a = await renderReportPdf(composed, { tenantName: 'Acme Lending GmbH', systemName: 'Scoring', templateId: 'pdf/board@1' });
    const b = await renderReportPdf(composed, { tenantName: 'Acme Lending GmbH', systemName: 'Scoring', templateId: 'pdf/board@1' });
    expect(a.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(a.sha256).toBe(b.sha256);
    expect(a.pages).toBeGreaterThanOrEqual(4);
    const text = await pdfText(a.bytes);
    for (const s of ['DRAFT', 'Acme Lending GmbH', 'Scoring', '2026-11-24', 'chief-risk-officer', 'Top risks', 'Risk number 80', 'Owner']) {
      expect(text).toContain(s);
    }
    expect(text).toContain('with "quotes"');
  });
});

describe('types and generate', () => {
  it('lists the 15 report types with audience, template and required inputs', async () => {
    const res = await t.call('GET', '/v1/reports/types');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(15);
    const regulator = res.body.data.find((x: { id: string }) => x.id === 'regulator');
    expect(regulator).toMatchObject({ object: 'svc.reporting.report_type', templateId: 'pdf/regulator@1', requiredInputs: ['systemId'] });
    expect(res.body.cursor).toBeNull();
  });

  it('refuses an unknown template (422), a missing required input (422 naming it) and a system of another tenant (404)', async () => {
    const bad = expectEnvelope(await t.call('POST', '/v1/reports/generate', { body: { template: 'horoscope' } }), 422, 'validation_failed');
    expect(bad.details).toContainEqual(expect.objectContaining({ field: 'template' }));
    const missing = expectEnvelope(
      await t.call('POST', '/v1/reports/generate', { body: { template: 'regulator' } }),
      422,
      'validation_failed',
    );
    expect(missing.details).toContainEqual(expect.objectContaining({ field: 'systemId', issue: 'missing' }));
    const other = await createTenant(ts);
    await other.call('POST', '/v1/compliance/assessments', { body: { type: 'fria', systemId: 'sys_theirs', jurisdiction: 'eu/de' } });
    expectEnvelope(
      await t.call('POST', '/v1/reports/generate', { body: { template: 'regulator', systemId: 'sys_theirs' } }),
      404,
      'not_found',
    );
    expectEnvelope(await t.call('GET', '/v1/reports/rpt_01JD3Z8W2M6Q4X9V7K5T1B0N3R'), 404, 'not_found');
  });

  it('answers rendering at once; the job renders a PDF holding the tenant’s data; export serves it with its hash', async () => {
    const res = await t.call('POST', '/v1/reports/generate', { body: { template: 'regulator', systemId: SYSTEM } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({
      object: 'svc.reporting.report',
      status: 'rendering',
      downloadUrl: null,
      systemId: SYSTEM,
      draft: true,
    });
    const id = res.body.id as string;
    // Export while rendering: the report's status, not a file. (The job may already be done on a fast machine.)
    const early = await download(t, `/v1/reports/export/${id}`);
    expect([200, 202]).toContain(early.status);
    if (early.status === 202) expect(JSON.parse(early.bytes.toString()).status).toBe('rendering');

    const done = await ready(t, id);
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'ready', downloadUrl: `/v1/reports/export/${id}`, error: null });
    expect(done.recommendedReviewers.length).toBeGreaterThan(0);
    const file = await download(t, done.downloadUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="regulator-rpt_\w+\.pdf"$/);
    expect(file.headers.get('etag')).toBe(`"${done.sha256}"`);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(file.bytes).digest('hex')).toBe(done.sha256);
    expect(file.bytes.length).toBe(done.sizeBytes);

    const text = await pdfText(file.bytes);
    expect(text).toContain('Acme Lending GmbH');
    expect(text).toContain(SYSTEM_NAME);
    expect(text).toContain('DRAFT');
    expect(text).toContain('Quality management manual v4');
    // The board report of the same system shows the top risks; the audit committee's, the controls.
    const [board, committee] = await Promise.all(
      ['board', 'audit-committee'].map((template) => t.call('POST', '/v1/reports/generate', { body: { template, systemId: SYSTEM } })),
    );
    const boardDone = await ready(t, board?.body.id);
    expect(boardDone.status, JSON.stringify(boardDone)).toBe('ready');
    const boardText = await pdfText((await download(t, boardDone.downloadUrl)).bytes);
    const committeeDone = await ready(t, committee?.body.id);
    const committeeText = await pdfText((await download(t, committeeDone.downloadUrl)).bytes);
    // The title of the control the evidence cites (AIA-QMS-01), from the dictionary.
    expect(committeeText).toContain('Quality management system');
    expect(boardText).toContain('Proxy discrimination in credit scores');
    writeFileSync(join(dir, 'regulator.pdf'), file.bytes);

    const audit = await t.call('POST', '/v1/audit-trail/query', { body: { resourceId: id, limit: 50 } });
    expect([...new Set(audit.body.data.map((e: { action: string }) => e.action))].sort()).toEqual([
      'report.exported',
      'report.generated',
      'report.requested',
    ]);
    const list = await t.call('GET', '/v1/reports?status=ready');
    expect(list.body.data.map((r: { id: string }) => r.id)).toContain(id);
  }, 60_000);
});

describe('schedules', () => {
  it('checks the cron expression and the time zone', async () => {
    const bad = expectEnvelope(
      await t.call('POST', '/v1/reports/schedule', { body: { template: 'board', cron: '61 * * * *' } }),
      422,
      'validation_failed',
    );
    expect(bad.details).toContainEqual(expect.objectContaining({ field: 'cron' }));
    const tz = expectEnvelope(
      await t.call('POST', '/v1/reports/schedule', { body: { template: 'board', cron: '0 8 * * *', timezone: 'Mars/Olympus' } }),
      422,
      'validation_failed',
    );
    expect(tz.details).toContainEqual(expect.objectContaining({ field: 'timezone' }));
    expect(nextDue('0 8 * * *', 'Europe/Berlin', new Date('2026-11-24T12:00:00Z')).toISOString()).toBe('2026-11-25T07:00:00.000Z');
  });

  it('queues the first tick; a tick makes one report per due time, even run twice, and queues the next', async () => {
    const res = await t.call('POST', '/v1/reports/schedule', { body: { template: 'board', cron: '* * * * *' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const s = res.body;
    expect(s).toMatchObject({ object: 'svc.reporting.schedule', status: 'active', runs: 0 });
    const prisma = ts.server.db.prisma;
    const first = await prisma.job.findFirst({ where: { tenantId: t.tenantId, dedupeKey: `${s.id}@${s.nextRunAt}` } });
    expect(first?.kind).toBe('report.schedule_tick');
    // The due time comes now: the worker's tick makes the report and queues the next due time.
    await prisma.job.update({ where: { id: first?.id }, data: { runAt: new Date(Date.now() - 1000) } });
    const after = await waitFor('the tick', async () => {
      const g = await t.call('GET', `/v1/reports/schedules/${s.id}`);
      return g.body.runs === 1 ? g.body : undefined;
    });
    expect(after.lastRunAt).toBe(s.nextRunAt);
    expect(Date.parse(after.nextRunAt)).toBeGreaterThan(Date.parse(s.nextRunAt));
    const report = await ready(t, after.lastReportId);
    expect(report).toMatchObject({ status: 'ready', scheduleId: s.id, dueAt: s.nextRunAt, template: 'board' });
    // The same tick run again (a lease that ran out) makes nothing more.
    const tick = reportJobs['report.schedule_tick'];
    await tick?.run(
      {
        id: 'job_again',
        tenantId: t.tenantId,
        kind: 'report.schedule_tick',
        payload: { scheduleId: s.id, dueAt: s.nextRunAt },
        attempts: 2,
        maxAttempts: 5,
        runAt: new Date(),
      },
      { prisma, log: console as never },
    );
    expect(await prisma.report.count({ where: { scheduleId: s.id } })).toBe(1);
    expect(await prisma.job.count({ where: { tenantId: t.tenantId, dedupeKey: `${s.id}@${after.nextRunAt}` } })).toBe(1);

    const paused = await t.call('POST', `/v1/reports/schedules/${s.id}/pause`);
    expect(paused.body).toMatchObject({ status: 'paused', nextRunAt: null });
    expectEnvelope(await t.call('POST', `/v1/reports/schedules/${s.id}/pause`), 409, 'conflict');
    const resumed = await t.call('POST', `/v1/reports/schedules/${s.id}/resume`);
    expect(resumed.body.status).toBe('active');
    const deleted = await t.call('DELETE', `/v1/reports/schedules/${s.id}`);
    expect(deleted.body.status).toBe('deleted');
    const list = await t.call('GET', '/v1/reports/schedules?status=deleted');
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(s.id);
  }, 60_000);

  // Two processes on one database need PostgreSQL (each PGlite server is its own in-memory database).
  it.skipIf(!process.env.DATABASE_URL)(
    'two processes on one database make one report per due time',
    async () => {
      const second = await startTestServer({ DATABASE_URL: ts.databaseUrl, SVC_ROLE: 'all', SVC_JOBS_POLL_MS: '50' });
      try {
        const res = await t.call('POST', '/v1/reports/schedule', { body: { template: 'internal', cron: '* * * * *' } });
        const s = res.body;
        const prisma = ts.server.db.prisma;
        await prisma.job.updateMany({
          where: { tenantId: t.tenantId, dedupeKey: `${s.id}@${s.nextRunAt}` },
          data: { runAt: new Date(Date.now() - 1000) },
        });
        await waitFor('the tick', async () => ((await t.call('GET', `/v1/reports/schedules/${s.id}`)).body.runs >= 1 ? true : undefined));
        await new Promise((r) => setTimeout(r, 1000));
        expect(await prisma.report.count({ where: { scheduleId: s.id, dueAt: new Date(s.nextRunAt) } })).toBe(1);
        expect(await prisma.report.count({ where: { scheduleId: s.id } })).toBe(1);
      } finally {
        await second.close();
      }
    },
    60_000,
  );
});

describe('packs', () => {
  let trustFile: string;
  beforeAll(async () => {
    const keys = await t.call('GET', '/v1/audit-trail/keys');
    trustFile = join(dir, 'trust.json');
    writeFileSync(trustFile, JSON.stringify({ data: keys.body.data }));
  });

  it('builds a signed audit pack that svc audit verify accepts offline, and rejects once a byte is changed', async () => {
    const ready = (await t.call('GET', '/v1/reports?status=ready')).body.data[0];
    const res = await t.call('POST', '/v1/reports/audit-pack', { body: { reportId: ready.id } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.files.map((f: { name: string }) => f.name)).toEqual([
      'audit-trail.json',
      'evidence-index.json',
      'keys.json',
      'report.pdf',
    ]);
    const zip = await download(t, res.body.downloadUrl);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(new Uint8Array(zip.bytes));
    const index = JSON.parse(Buffer.from(files['evidence-index.json'] as Uint8Array).toString());
    expect(index.data.map((e: { title: string }) => e.title)).toContain('Quality management manual v4');
    const manifest = JSON.parse(Buffer.from(files['manifest.json'] as Uint8Array).toString());
    expect(manifest).toMatchObject({ format: 'svc.reporting.pack/1', tenantId: t.tenantId, kind: 'audit' });
    expect(
      Buffer.from(files['report.pdf'] as Uint8Array)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    const good = join(dir, 'pack.zip');
    writeFileSync(good, zip.bytes);
    const ok = await svc(['audit', 'verify', good, '--trust', trustFile]);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^valid: /);
    // The CLI's check in-process from here on (each CLI start costs seconds): no trust anchor.
    const trust = { keys: JSON.parse(readFileSync(trustFile, 'utf8')).data };
    expect(verifyExportFile(good).status).toBe('unanchored');

    // One byte of the stored report.pdf changed in the zip itself.
    const raw = Buffer.from(zip.bytes);
    const pdfAt = raw.indexOf('%PDF-');
    raw[pdfAt + 200] = raw[pdfAt + 200] === 0x41 ? 0x42 : 0x41;
    const flipped = join(dir, 'flipped.zip');
    writeFileSync(flipped, raw);
    const flip = await svc(['audit', 'verify', flipped, '--trust', trustFile]);
    expect(flip.code).toBe(2);
    expect(flip.stdout).toMatch(/report\.pdf/);

    // One byte of the evidence index changed, the zip rebuilt around it.
    const evidence = Buffer.from(files['evidence-index.json'] as Uint8Array);
    const at = evidence.indexOf('Quality');
    evidence[at] = 'q'.charCodeAt(0);
    const tampered = join(dir, 'tampered.zip');
    writeFileSync(tampered, zipSync({ ...files, 'evidence-index.json': new Uint8Array(evidence) }));
    expect(verifyExportFile(tampered, trust)).toMatchObject({
      status: 'broken',
      firstBroken: { id: 'evidence-index.json', reason: 'file_hash_mismatch' },
    });

    // A byte of an audit event changed and the manifest entry "fixed": the signature fails.
    const trail = JSON.parse(Buffer.from(files['audit-trail.json'] as Uint8Array).toString());
    trail.events[0].actor = 'someone-else';
    const forgedTrail = Buffer.from(`${JSON.stringify(trail, null, 2)}\n`);
    const { createHash } = await import('node:crypto');
    manifest.files = manifest.files.map((f: { name: string }) =>
      f.name === 'audit-trail.json'
        ? { ...f, sha256: createHash('sha256').update(forgedTrail).digest('hex'), size: forgedTrail.length }
        : f,
    );
    const forged = join(dir, 'forged.zip');
    writeFileSync(
      forged,
      zipSync({
        ...files,
        'audit-trail.json': new Uint8Array(forgedTrail),
        'manifest.json': new Uint8Array(Buffer.from(JSON.stringify(manifest))),
      }),
    );
    expect(verifyExportFile(forged, trust)).toMatchObject({ status: 'broken', firstBroken: { reason: 'manifest_hash_mismatch' } });
  }, 180_000);

  it('refuses a report that is not ready (409) and another tenant’s (404); export of a rendering report is 202', async () => {
    const other = await createTenant(ts);
    const theirs = await other.call('POST', '/v1/reports/generate', { body: { template: 'internal' } });
    expect(theirs.status).toBe(202);
    expectEnvelope(await t.call('POST', '/v1/reports/audit-pack', { body: { reportId: theirs.body.id } }), 404, 'not_found');
    // A report of this tenant still rendering (written as the generate route writes it, minus the job).
    const id = 'rpt_01JD3Z8W2M6Q4X9V7K5T1B0N3R';
    await ts.server.db.prisma.report.create({
      data: { id, tenantId: t.tenantId, template: 'board', inputs: {}, status: 'rendering', reviewers: [], createdBy: 'test' },
    });
    expectEnvelope(await t.call('POST', '/v1/reports/audit-pack', { body: { reportId: id } }), 409, 'conflict');
    const pending = await download(t, `/v1/reports/export/${id}`);
    expect(pending.status).toBe(202);
    expect(JSON.parse(pending.bytes.toString())).toMatchObject({ id, status: 'rendering', downloadUrl: null });
  });

  it('builds the notified-body pack of a system: Annex IV sections with the missing ones, QMS evidence, decisions', async () => {
    expectEnvelope(await t.call('POST', '/v1/reports/notified-body-pack', { body: { systemId: 'sys_nobody' } }), 404, 'not_found');
    const res = await t.call('POST', '/v1/reports/notified-body-pack', { body: { systemId: SYSTEM } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ kind: 'notified_body', systemId: SYSTEM, range: null });
    const zip = await download(t, res.body.downloadUrl);
    const files = unzipSync(new Uint8Array(zip.bytes));
    expect(Object.keys(files).sort()).toEqual([
      'agent-decisions.json',
      'keys.json',
      'manifest.json',
      'manifest.sig',
      'qms-evidence.json',
      'technical-documentation.json',
      'technical-documentation.md',
    ]);
    const doc = JSON.parse(Buffer.from(files['technical-documentation.json'] as Uint8Array).toString());
    expect(doc.sections).toHaveLength(9);
    const byN = Object.fromEntries(doc.sections.map((s: { section: number }) => [s.section, s]));
    // 1: the profile and the assessment; 5: the risk procedure (AIA-RMS-01 cites Art. 9) and the risk.
    expect(byN[1].status).toBe('documented');
    expect(byN[1].sources.map((x: { type: string }) => x.type)).toEqual(expect.arrayContaining(['system_profile', 'assessment']));
    expect(byN[5].sources.map((x: { title: string }) => x.title)).toEqual(
      expect.arrayContaining(['Risk management procedure for lending models', 'Proxy discrimination in credit scores']),
    );
    expect(doc.missingSections).toContain(8);
    expect(doc.missingSections).not.toContain(5);
    const qms = JSON.parse(Buffer.from(files['qms-evidence.json'] as Uint8Array).toString());
    expect(qms.data.map((e: { title: string }) => e.title)).toEqual(['Quality management manual v4']);
    expect(Buffer.from(files['technical-documentation.md'] as Uint8Array).toString()).toMatch(
      /## 8\. EU declaration of conformity[^\n]*\n\nMISSING/,
    );

    const file = join(dir, 'nb.zip');
    writeFileSync(file, zip.bytes);
    const verdict = verifyExportFile(file, { keys: JSON.parse(readFileSync(trustFile, 'utf8')).data });
    expect(verdict, JSON.stringify(verdict)).toMatchObject({ status: 'valid', tenantId: t.tenantId });
  }, 60_000);
});
