import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { issueOperatorCredential, loadConfig, type RunningServer, resolveSecretsKey, SECRETS_KEY_FILE, startServer } from '@svc/server';
import { afterAll, describe, expect, it } from 'vitest';
import { call, createTenant } from './support/api.ts';
import { snapshot, startTestServer, type TestServer } from './support/server.ts';

/**
 * Secrets sealed without configuration: the suite's fixed SVC_SECRETS_KEY is removed here, so the
 * paths a first user meets are the ones under test. An embedded database on disk keeps a key file
 * of its own (0600) beside its data; rows written in clear are sealed once at start, audited;
 * PostgreSQL with live tenants refuses to start without a configured key.
 */
const unconfigured: NodeJS.ProcessEnv = { ...process.env, SVC_SECRETS_KEY: undefined, SVC_LOG_LEVEL: 'silent' };
const dir = mkdtempSync(join(tmpdir(), 'svc-sealed-'));
const dataDir = join(dir, 'data');
const opened: RunningServer[] = [];

/** The embedded database on disk, whatever database the rest of the suite runs on. */
async function startEmbedded(
  at = dataDir,
  env: NodeJS.ProcessEnv = {},
  { fromSnapshot = true } = {},
): Promise<{ server: RunningServer; operatorToken: string }> {
  const server = await startServer({
    env: { ...unconfigured, DATABASE_URL: undefined, SVC_ROLE: 'webhooks', WEBHOOK_PORT: '0', ...env },
    config: { port: 0, dataDir: at, databaseUrl: undefined, credentialsFile: join(dir, 'credentials.json') },
    anonymousPerSecond: 100_000,
    operatorPerSecond: 100_000,
    // A new folder starts from the suite's migrated, content-loaded database (a restart opens its own).
    ...(fromSnapshot && snapshot() ? { pgliteSnapshot: snapshot() } : {}),
  });
  opened.push(server);
  const { token } = await issueOperatorCredential(server.db.prisma, 'secrets test');
  return { server, operatorToken: token };
}

afterAll(async () => {
  for (const s of opened) await s.close().catch(() => {});
});

/**
 * The embedded-database tests below ignore DATABASE_URL: the PostgreSQL pass would only repeat them,
 * so they run on the embedded pass.
 */
const embeddedPass = !process.env.DATABASE_URL;

describe.runIf(embeddedPass)('the embedded database on disk, no key configured', () => {
  let tenantId = '';
  let inboundSecret = '';

  it('keeps a generated key beside the data (mode 0600) and stores no secret in clear', async () => {
    // A real first start, in this process: it migrates and loads every dictionary, the glossary and
    // the crosswalks into the new folder (the other servers of the suite start from the snapshot).
    const { server, operatorToken } = await startEmbedded(dataDir, {}, { fromSnapshot: false });
    const keyFile = join(dataDir, SECRETS_KEY_FILE);
    expect(existsSync(keyFile)).toBe(true);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64')).toHaveLength(32);

    const t = await createTenant({ server, url: server.url, operatorToken, close: () => server.close() });
    tenantId = t.tenantId;
    const sub = await t.call('POST', '/v1/webhook-subscriptions', {
      body: { url: 'https://hooks.example.com/x', eventTypes: ['assessment.*'] },
    });
    expect(sub.status).toBe(201);
    const row = await server.db.prisma.webhookSubscription.findUniqueOrThrow({ where: { id: sub.body.id } });
    expect(row.secret.startsWith('enc:v1:')).toBe(true);
    expect(row.secret).not.toContain(sub.body.secret);
    const issued = await t.call('POST', '/v1/webhook-inbound-secrets/svc');
    inboundSecret = issued.body.secret;
    const inbound = await server.db.prisma.webhookInboundSecret.findFirstOrThrow({ where: { tenantId, provider: 'svc' } });
    expect(inbound.secret.startsWith('enc:v1:')).toBe(true);

    // A row written in clear (before sealing existed), to be sealed at the next start.
    await server.db.prisma.webhookSubscription.update({ where: { id: sub.body.id }, data: { secret: 'whsec_legacy_clear_value' } });
    await server.close();
  });

  it('at the next start reuses the key (sealed secrets still verify) and seals rows found in clear, once, audited', async () => {
    const { server } = await startEmbedded();
    const rows = await server.db.prisma.webhookSubscription.findMany({ where: { tenantId } });
    expect(rows.every((r) => r.secret.startsWith('enc:v1:'))).toBe(true);

    const body = JSON.stringify({ id: `ext_${randomUUID()}`, type: 'incident.reported', data: { id: 'inc_1' } });
    const at = Math.floor(Date.now() / 1000);
    const sig = createHmac('sha256', inboundSecret).update(`${at}.${body}`).digest('hex');
    const res = await fetch(`${server.webhooks.webhookUrl}/inbound/${tenantId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'svc-signature': `t=${at},v1=${sig}` },
      body,
    });
    expect(res.status).toBe(200);

    const sealedEvents = () => server.db.prisma.auditEvent.findMany({ where: { tenantId, action: 'webhook_secrets.sealed' } });
    const events = await sealedEvents();
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toEqual({ subscriptions: 1, inboundSecrets: 0 });
    await server.close();

    const again = await startEmbedded();
    expect(await again.server.db.prisma.auditEvent.count({ where: { tenantId, action: 'webhook_secrets.sealed' } })).toBe(1);
  });
});

function signedInbound(server: RunningServer, tenantId: string, secret: string) {
  const body = JSON.stringify({ id: `ext_${randomUUID()}`, type: 'incident.reported', data: { id: 'inc_1' } });
  const at = Math.floor(Date.now() / 1000);
  const sig = createHmac('sha256', secret).update(`${at}.${body}`).digest('hex');
  return fetch(`${server.webhooks.webhookUrl}/inbound/${tenantId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'svc-signature': `t=${at},v1=${sig}` },
    body,
  });
}

describe.runIf(embeddedPass)('rotating the secrets key', () => {
  const rotDir = join(dir, 'rotation');
  const oldKey = randomBytes(32).toString('base64');
  const newKey = randomBytes(32).toString('base64');

  it('re-seals every row under the new key at start, on the record of each tenant, and the old key can then go', async () => {
    const first = await startEmbedded(rotDir, { SVC_SECRETS_KEY: oldKey });
    const t = await createTenant({
      server: first.server,
      url: first.server.url,
      operatorToken: first.operatorToken,
      close: async () => {},
    });
    await t.call('POST', '/v1/webhook-subscriptions', { body: { url: 'https://hooks.example.com/r', eventTypes: ['assessment.*'] } });
    const inbound = (await t.call('POST', '/v1/webhook-inbound-secrets/svc')).body.secret as string;
    // The other sealed columns: a Slack channel's URL and a red-team target's headers.
    const slack = await t.call('POST', '/v1/notifications/slack', {
      body: { name: '#compliance', url: 'https://hooks.slack.com/services/T000/B000/rotation' },
    });
    expect(slack.status, JSON.stringify(slack.body)).toBe(201);
    const target = await t.call('POST', '/v1/red-team/targets', {
      body: {
        name: 'Model',
        url: 'https://model.example.com/v1/chat',
        headers: { Authorization: 'Bearer sk-rotation' },
        bodyTemplate: { prompt: '{{prompt}}' },
        answerPath: 'answer',
      },
    });
    expect(target.status, JSON.stringify(target.body)).toBe(201);
    const before = await first.server.db.prisma.webhookSubscription.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    const channelBefore = await first.server.db.prisma.notificationChannel.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    const targetBefore = await first.server.db.prisma.redTeamTarget.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    await first.server.close();

    // Without the previous key, the new key alone cannot read the old rows: the rotation needs both.
    const rotating = await startEmbedded(rotDir, { SVC_SECRETS_KEY: newKey, SVC_SECRETS_KEY_PREVIOUS: oldKey });
    const after = await rotating.server.db.prisma.webhookSubscription.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    expect(after.secret).not.toBe(before.secret);
    expect(after.secret.startsWith('enc:v1:')).toBe(true);
    const channelAfter = await rotating.server.db.prisma.notificationChannel.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    const targetAfter = await rotating.server.db.prisma.redTeamTarget.findFirstOrThrow({ where: { tenantId: t.tenantId } });
    expect(channelAfter.url).not.toBe(channelBefore.url);
    expect(targetAfter.headersSealed).not.toBe(targetBefore.headersSealed);
    expect(targetAfter.headersSealed?.startsWith('enc:v1:')).toBe(true);
    const events = await rotating.server.db.prisma.auditEvent.findMany({ where: { tenantId: t.tenantId, action: 'secrets_key.rotated' } });
    expect(events.map((e) => e.data)).toEqual([
      {
        keyId: expect.stringMatching(/^skey_[0-9a-f]{16}$/),
        previousKeyId: expect.stringMatching(/^skey_/),
        subscriptions: 1,
        inboundSecrets: 1,
        notificationChannels: 1,
        redTeamTargets: 1,
      },
    ]);
    expect(JSON.stringify(events)).not.toContain(newKey);
    await rotating.server.close();

    const done = await startEmbedded(rotDir, { SVC_SECRETS_KEY: newKey });
    expect((await signedInbound(done.server, t.tenantId, inbound)).status).toBe(200);
    expect(await done.server.db.prisma.auditEvent.count({ where: { tenantId: t.tenantId, action: 'secrets_key.rotated' } })).toBe(1);
    await done.server.close();
  });

  it('a previous key without the new one, or malformed, is refused at start', async () => {
    expect(() => loadConfig({ SVC_SECRETS_KEY_PREVIOUS: 'short' })).toThrow(/SVC_SECRETS_KEY_PREVIOUS/);
    const config = loadConfig({ ...unconfigured, SVC_SECRETS_KEY_PREVIOUS: oldKey });
    // Refused before the database is looked at.
    await expect(resolveSecretsKey(config, undefined as never)).rejects.toThrow(/SVC_SECRETS_KEY_PREVIOUS is set without SVC_SECRETS_KEY/);
  });
});

describe('PostgreSQL without SVC_SECRETS_KEY', () => {
  let ts: TestServer;
  afterAll(() => ts?.close());

  it('is refused once live tenants exist, with a message naming the variable; a key file serves a database without them', async () => {
    ts = await startTestServer();
    const credentialsFile = join(mkdtempSync(join(tmpdir(), 'svc-pgkey-')), 'credentials.json');
    const config = loadConfig(
      { ...unconfigured, DATABASE_URL: 'postgres://127.0.0.1:1/decided-by-tenants' },
      { credentialsFile, dataDir: dataDir },
    );
    // Only the tenants' environments decide; the database itself is the test server's.
    const noLive = await ts.server.db.prisma.tenant.count({ where: { env: 'live' } });
    if (noLive === 0) {
      const source = await resolveSecretsKey(config, ts.server.db.prisma);
      expect(source).toEqual({ source: 'file', file: join(credentialsFile, '..', SECRETS_KEY_FILE) });
    }
    await createTenant(ts, { env: 'live' });
    await expect(resolveSecretsKey(config, ts.server.db.prisma)).rejects.toThrow(
      /SVC_SECRETS_KEY must be set on PostgreSQL when live tenants exist/,
    );
    // The process's key is the suite's again for the other tests of this file's server.
    await resolveSecretsKey(loadConfig(process.env), ts.server.db.prisma);
  });

  it.runIf(Boolean(process.env.DATABASE_URL))('a real start on PostgreSQL with live tenants stops before listening', async () => {
    const live = await createTenant(ts, { env: 'live' });
    expect((await call(ts.url, 'GET', '/v1/health')).status).toBe(200);
    expect(live.tenantId).toMatch(/^ten_/);
    await expect(
      startServer({ env: unconfigured, config: { port: 0, credentialsFile: join(dir, 'pg-credentials.json') } }),
    ).rejects.toThrow(/SVC_SECRETS_KEY/);
  });
});
