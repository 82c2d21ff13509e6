import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcInProcess } from './support/cli.ts';
import { seedEmbeddedDataDir } from './support/server.ts';
import { svcServe } from './support/svc-process.ts';

// `svc serve` runs as a child, compiled as `pnpm start` runs it (test/support/svc-process.ts); the
// other commands run in process (test/support/cli.ts); cli-ux.test.ts covers the JS bin under plain node.

/**
 * The CLI end to end: `svc serve` on a fresh embedded database (first start), then the operator
 * commands against it over HTTP while the server holds the database, then a restart on the same
 * data. Always on PGlite: first start is about an empty embedded database.
 */
const dir = mkdtempSync(join(tmpdir(), 'svc-cli-'));
const credentialsFile = join(dir, 'credentials.json');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  SVC_CREDENTIALS_FILE: credentialsFile,
  SVC_DATA_DIR: join(dir, 'data'),
  // Nothing of a start is kept in the user's cache folder (db/embedded-template.ts).
  SVC_CACHE_DIR: join(dir, 'cache'),
  PORT: '0',
  SVC_LOG_LEVEL: 'warn',
};
delete env.DATABASE_URL;
delete env.REDIS_URL;
// As a user runs it: the embedded service keeps a secrets key of its own in its data folder.
delete env.SVC_SECRETS_KEY;

async function startServe(
  extraEnv: Record<string, string> = {},
): Promise<{ child: ChildProcess; stderr: () => string; stdout: () => string }> {
  const child = spawn(...svcServe([]), { env: { ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stderr?.on('data', (d) => {
    err += String(d);
  });
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  // A first start on a fresh data folder migrates and loads the content: generous on a loaded machine.
  const deadline = Date.now() + 150_000;
  while (!/svc listening on/.test(err)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // The first-start lines follow the listening line in the same write burst.
  await new Promise((r) => setTimeout(r, 200));
  return { child, stderr: () => err, stdout: () => out };
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** A CLI command, run in this process against the spawned server (test/support/cli.ts). */
function svc(args: string[], extraEnv: Record<string, string> = {}) {
  return svcInProcess(args, { ...env, ...extraEnv });
}

let server: Awaited<ReturnType<typeof startServe>>;
beforeAll(async () => {
  // A first start (no tenant, no key, no secret yet) on a folder filled with the suite's migrated
  // snapshot: what this file tests is the CLI against it. The first start on an empty folder
  // (migrations, content, the template it leaves for the next one) is test/cli-install.test.ts's,
  // with the installed package.
  seedEmbeddedDataDir(env.SVC_DATA_DIR as string);
  server = await startServe();
}, 180_000);
afterAll(async () => {
  if (server) await stop(server.child);
});

describe('svc serve: first start', () => {
  it('prints the URL, the sandbox tenant, the owner key and the operator credential, one line each', () => {
    const out = server.stderr();
    expect(out).toMatch(/^svc listening on http:\/\/127\.0\.0\.1:\d+ /m);
    expect(out).toMatch(/^sandbox tenant: +ten_[0-9A-Z]{26}$/m);
    expect(out).toMatch(/^owner API key: +svc_test_[0-9A-Za-z]{32}$/m);
    expect(out).toMatch(/^operator credential: +svc_op_[0-9A-Za-z]{32}$/m);
  });

  it('writes the credentials file the CLI reads, readable by its owner only', () => {
    expect(existsSync(credentialsFile)).toBe(true);
    const creds = JSON.parse(readFileSync(credentialsFile, 'utf8'));
    expect(creds.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.stderr()).toContain(creds.apiKey);
    expect(server.stderr()).toContain(creds.operatorToken);
  });
});

describe('svc commands over HTTP', () => {
  let tenantId = '';
  let token = '';

  it('tenants create and list, with --json', async () => {
    const created = await svc(['tenants', 'create', '--name', 'Acme Bank', '--tier', 'growth', '--env', 'live', '--json']);
    expect(created.code).toBe(0);
    const body = JSON.parse(created.stdout);
    expect(body.tenant).toMatchObject({ name: 'Acme Bank', tier: 'growth', env: 'live' });
    expect(body.apiKey.token).toMatch(/^svc_live_/);
    tenantId = body.tenant.id;
    const list = await svc(['tenants', 'list', '--json']);
    const tenants = JSON.parse(list.stdout);
    expect(tenants.map((t: { id: string }) => t.id)).toContain(tenantId);
    expect(tenants.some((t: { name: string }) => t.name === 'Sandbox')).toBe(true);
    const human = await svc(['tenants', 'list']);
    expect(human.stdout).toMatch(/^ID +NAME +TIER/m);
  });

  it('keys create, a generic call with it, revoke, and the revoked key is refused', async () => {
    const created = await svc(['keys', 'create', '--tenant', tenantId, '--role', 'editor', '--json']);
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ role: 'editor', tenantId });
    token = key.token;

    const call = await svc([
      'call',
      'POST',
      '/v1/compliance/assessments',
      '--key',
      token,
      '--data',
      '{"type":"dpia","systemId":"s1","jurisdiction":"eu/fr"}',
      '--json',
    ]);
    expect(call.code).toBe(0);
    expect(JSON.parse(call.stdout)).toMatchObject({ status: 'draft', completion: 0 });

    const revoked = await svc(['keys', 'revoke', key.id, '--json']);
    expect(JSON.parse(revoked.stdout).revokedAt).not.toBeNull();
    const refused = await svc(['call', 'GET', '/v1/compliance/assessments', '--key', token]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/401 unauthorized: The API key was revoked/);
    // The source and a prefix of the key, never the key itself.
    expect(refused.stderr).toMatch(/used the API key svc_\w+_\w{0,4}… from --key/);
    expect(refused.stderr).not.toContain(token);
  });

  it('uses the first-start owner key by default and shows API errors with their correlation id', async () => {
    const ok = await svc(['call', 'GET', '/v1/frameworks', '--json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).data.length).toBeGreaterThanOrEqual(3);
    const bad = await svc(['call', 'POST', '/v1/compliance/assessments', '--data', '{"type":"fria"}']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/422 validation_failed: /);
    expect(bad.stderr).toMatch(/^ {2}systemId: missing/m);
    expect(bad.stderr).toMatch(/correlation id cor_/);
    const badJson = await svc(['call', 'POST', '/v1/compliance/assessments', '--data', '{"type":"fria"}', '--json']);
    expect(JSON.parse(badJson.stdout)).toMatchObject({ error: 'validation_failed' });
  });

  it('audit keys writes the trust file; verify is valid only against it or a pinned fingerprint', async () => {
    const trust = join(dir, 'trust.json');
    const keys = await svc(['audit', 'keys', '--out', trust, '--json']);
    expect(keys.code).toBe(0);
    const listed = JSON.parse(keys.stdout);
    expect(listed.file).toBe(trust);
    expect(listed.data.length).toBeGreaterThanOrEqual(1);
    for (const k of listed.data) {
      expect(k.fingerprint).toBe(`sha256:${createHash('sha256').update(Buffer.from(k.publicKey, 'base64')).digest('hex')}`);
    }
    // The trust file is the body of GET /v1/audit-trail/keys.
    const written = JSON.parse(readFileSync(trust, 'utf8'));
    expect(written.data.map((k: { keyId: string }) => k.keyId)).toEqual(listed.data.map((k: { keyId: string }) => k.keyId));
    expect(written.data[0]).not.toHaveProperty('fingerprint');
    const human = await svc(['audit', 'keys']);
    expect(human.stdout).toMatch(/^KEYID +FINGERPRINT +CREATEDAT +RETIREDAT$/m);
    expect(human.stdout).toContain(listed.data[0].fingerprint);

    for (const fw of ['gdpr', 'eu-ai-act', 'iso-iec-42001']) expect((await svc(['frameworks', 'activate', fw])).code).toBe(0);
    const file = join(dir, 'export.json');
    expect((await svc(['audit', 'export', '--out', file])).code).toBe(0);
    // In pieces of 2 events, with progress: the same events, and a document that verifies the same.
    const pieces = join(dir, 'export-pieces.json');
    const chunked = await svc(['audit', 'export', '--out', pieces, '--chunk', '2', '--progress']);
    expect(chunked.code).toBe(0);
    const whole = JSON.parse(readFileSync(file, 'utf8'));
    const joined = JSON.parse(readFileSync(pieces, 'utf8'));
    expect(joined.events.map((e: { seq: number }) => e.seq)).toEqual(
      whole.events.slice(0, joined.events.length).map((e: { seq: number }) => e.seq),
    );
    expect(joined.events.length).toBeGreaterThanOrEqual(3);
    expect(chunked.stderr.match(/^exported \d+ of \d+ events$/gm)?.length).toBe(Math.ceil(joined.events.length / 2));
    expect((await svc(['audit', 'verify', pieces, '--trust', trust])).code).toBe(0);
    const valid = await svc(['audit', 'verify', file, '--trust', trust]);
    expect(valid.code).toBe(0);
    expect(valid.stdout).toMatch(/^valid: \d+ events of ten_/);
    const pins = listed.data.flatMap((k: { fingerprint: string }) => ['--key-fingerprint', k.fingerprint]);
    expect((await svc(['audit', 'verify', file, ...pins])).code).toBe(0);

    const unanchored = await svc(['audit', 'verify', file]);
    expect(unanchored.code).toBe(3);
    expect(unanchored.stdout).toMatch(/^NOT ANCHORED: /);
    expect(unanchored.stdout).not.toMatch(/^valid/m);
    const help = await svc(['--help']);
    expect(help.stdout).toMatch(/3 chain intact but not anchored/);
  }, 180_000); // about fifteen CLI processes, each loading the CLI: minutes on a loaded machine

  it('a tenant key cannot use operator commands', async () => {
    const res = await svc(['tenants', 'list', '--key', JSON.parse(readFileSync(credentialsFile, 'utf8')).apiKey]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('403 forbidden');
    expect(res.stderr).toContain('is not an operator credential');
  });
});

describe('restart on the same data', () => {
  it('reuses the data and prints no new secrets', async () => {
    const before = JSON.parse(readFileSync(credentialsFile, 'utf8'));
    await stop(server.child);
    server = await startServe();
    expect(server.stderr()).not.toMatch(/owner API key/);
    const after = JSON.parse(readFileSync(credentialsFile, 'utf8'));
    expect(after.apiKey).toBe(before.apiKey);
    const list = await svc(['tenants', 'list', '--json']);
    expect(JSON.parse(list.stdout).some((t: { name: string }) => t.name === 'Acme Bank')).toBe(true);
  });
});
