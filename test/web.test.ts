import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/api.ts';
import { startIsolatedTestServer, type TestServer } from './support/server.ts';

// page.evaluate takes its browser-side code as strings: the test project has no DOM types.
/**
 * The web application and the operator console in a real browser (Debian's Chromium driven by
 * playwright-core): an operator signs in with a token, creates a tenant and invites its owner; the
 * owner sets a password through the one-time link, creates an API key the API accepts, revokes it
 * after the confirmation and sees the API refuse it; a delivery to a failing receiver is
 * dead-lettered, the receiver recovers, and the operator replays it from the console. Screenshots
 * of the main pages are taken on every run; with SVC_SCREENSHOTS=1 they replace docs/screenshots/,
 * otherwise they go to a temporary folder so a test run leaves the tree as it was.
 */

const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS =
  process.env.SVC_SCREENSHOTS === '1' ? join(import.meta.dirname, '..', 'docs', 'screenshots') : mkdtempSync(join(tmpdir(), 'svc-shots-'));
const PASSWORD = 'a long enough password 42';

const ENV = {
  SVC_ROLE: 'all',
  SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  SVC_WEBHOOK_SCHEDULE_SCALE: '0.01',
  SVC_WEBHOOK_POLL_MS: '25',
  SVC_WEBHOOK_ATTEMPT_TIMEOUT_MS: '5000',
  SVC_WEBHOOK_LEASE_MS: '6000',
  WEBHOOK_PORT: '0',
  SVC_WEB_PORT: '0',
  SVC_CONSOLE_PORT: '0',
};

interface Hit {
  id: string;
  attempt: string | undefined;
}

let healthy = false;
const hits: Hit[] = [];
let receiver: Server;
let receiverUrl: string;
let ts: TestServer;
let browser: Browser;
let admin: BrowserContext;
let web: BrowserContext;
let appUrl: string;
let adminUrl: string;

async function until<T>(fn: () => Promise<T> | T, ok: (v: T) => boolean, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met in ${ms} ms: ${JSON.stringify(v).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: the browser tests need it. Install it with scripts/ensure-chromium.sh (apt-get install chromium).`,
    );
  }
  mkdirSync(SHOTS, { recursive: true });
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
      hits.push({ id: body.id, attempt: req.headers['x-svc-delivery-attempt'] as string | undefined });
      res.writeHead(healthy ? 200 : 500, { 'content-type': 'text/plain' }).end(healthy ? 'ok' : 'down');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', () => resolve()));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  ts = await startIsolatedTestServer(ENV);
  appUrl = ts.server.appUrl as string;
  adminUrl = ts.server.adminUrl as string;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  admin = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  web = await browser.newContext({ viewport: { width: 1280, height: 800 } });
});

afterAll(async () => {
  await browser?.close();
  await ts?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
});

describe('in a browser', { timeout: 120_000 }, () => {
  let tenantId: string;
  let ownerToken: string;
  let link: string;
  let consolePage: Page;

  it('an operator signs in with a token, creates a tenant and invites its owner', async () => {
    consolePage = await admin.newPage();
    await consolePage.goto(`${adminUrl}/tenants`);
    await expect.poll(() => consolePage.url()).toContain('/sign-in');
    await shot(consolePage, 'console-sign-in');
    await consolePage.getByLabel('Operator token').fill(ts.operatorToken);
    await consolePage.getByRole('button', { name: 'Sign in' }).click();
    await consolePage.waitForURL(`${adminUrl}/tenants`);
    expect(await consolePage.getByRole('heading', { level: 1 }).textContent()).toBe('Tenants');

    await consolePage.getByLabel('Name', { exact: true }).fill('Acme Insurance');
    await consolePage.getByLabel('Tier').selectOption('enterprise');
    await consolePage.getByLabel(/Environment/).selectOption('test');
    await consolePage.getByRole('button', { name: 'Create the tenant' }).click();
    await consolePage.getByRole('heading', { name: /Tenant “Acme Insurance” created/ }).waitFor();
    ownerToken = ((await consolePage.locator('#owner-token').textContent()) ?? '').trim();
    expect(ownerToken).toMatch(/^svc_test_/);
    await consolePage.getByRole('link', { name: /Open the tenant/ }).click();
    tenantId = /\/tenants\/(ten_\w+)/.exec(consolePage.url())?.[1] as string;
    expect(tenantId).toBeTruthy();

    await consolePage.getByLabel('Email address').fill('owner@acme.test');
    await consolePage.getByLabel('Role', { exact: true }).selectOption('owner');
    await consolePage.getByRole('button', { name: 'Issue a sign-in link' }).click();
    link = ((await consolePage.locator('#invite-link').textContent()) ?? '').trim();
    expect(link.startsWith(`${appUrl}/sign-in/link?token=`)).toBe(true);
    await consolePage.goto(`${adminUrl}/tenants`);
    await shot(consolePage, 'console-tenants');
  });

  let page: Page;
  let keyToken: string;

  it('the owner sets a password through the link, signs in and sees the overview', async () => {
    page = await web.newPage();
    await page.goto(link);
    await page.getByLabel(/New password/).fill(PASSWORD);
    await page.getByLabel('The same password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set the password and sign in' }).click();
    await page.waitForURL(`${appUrl}/overview`);
    await page.getByRole('heading', { name: 'Recent audit events' }).waitFor();

    // Sign out, and in again with the password.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    await shot(page, 'web-sign-in');
    await page.getByLabel('Email address').fill('owner@acme.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${appUrl}/overview`);
  });

  it('creates an API key (token shown once, with a copy button) that the API accepts', async () => {
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('link', { name: 'Create an API key' }).click();
    await page.getByLabel(/^Name/).fill('reporting robot');
    await page.getByLabel('Role', { exact: true }).selectOption('editor');
    await page.getByRole('button', { name: 'Create the key' }).click();
    await page.getByRole('heading', { name: 'API key created' }).waitFor();
    keyToken = ((await page.locator('#new-token').textContent()) ?? '').trim();
    expect(keyToken).toMatch(/^svc_test_[0-9A-Za-z]{32}$/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('#new-token-status').textContent()).toMatch(/Copied|Selected|Copy failed/);
    await shot(page, 'web-api-key-created');

    const res = await call(ts.url, 'GET', '/v1/webhook-subscriptions', { token: keyToken });
    expect(res.status).toBe(200);
    await page.getByRole('link', { name: 'Back to the keys' }).click();
    const row = page.locator('tr', { hasText: 'reporting robot' });
    await expect.poll(() => row.locator('td[data-label="Last used"]').textContent()).not.toBe('never');
    expect(await page.content()).not.toContain(keyToken);
    await shot(page, 'web-api-keys');
  });

  it('revokes it after a confirmation, and the API refuses it (401)', async () => {
    await page.getByRole('link', { name: 'Revoke reporting robot' }).click();
    await page.getByRole('heading', { name: /Revoke the key “reporting robot”/ }).waitFor();
    await shot(page, 'web-api-key-revoke');
    // The confirmation is a real step: nothing is revoked before it.
    expect((await call(ts.url, 'GET', '/v1/webhook-subscriptions', { token: keyToken })).status).toBe(200);
    await page.getByRole('button', { name: 'Yes, revoke the key' }).click();
    await page.getByText(/is revoked: the API refuses it/).waitFor();
    expect(await page.locator('tr', { hasText: 'reporting robot' }).locator('.badge').textContent()).toBe('revoked');
    expect((await call(ts.url, 'GET', '/v1/webhook-subscriptions', { token: keyToken })).status).toBe(401);
  });

  it('is usable with the keyboard and on a phone', async () => {
    await page.goto(`${appUrl}/settings/api-keys`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement?.textContent')).toBe('Skip to the content');
    const outline = await page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).toBe('solid');
    await page.keyboard.press('Enter');
    expect(await page.evaluate<string>('document.activeElement?.id')).toBe('main');
    const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, storageState: await web.storageState() });
    await phone.goto(`${appUrl}/settings/api-keys`);
    const overflow = await phone.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(1);
    await shot(phone, 'web-api-keys-phone');
    await phone.close();
  });

  it('shows the overview: frameworks, findings, audit events and webhook subscriptions', async () => {
    const sub = await call(ts.url, 'POST', '/v1/webhook-subscriptions', {
      token: ownerToken,
      body: { url: receiverUrl, eventTypes: ['assessment.*'], description: 'failing receiver' },
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const a = await call(ts.url, 'POST', '/v1/compliance/assessments', {
      token: ownerToken,
      body: { type: 'fria', systemId: 'sys_credit_scoring_v2', jurisdiction: 'eu/de' },
    });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    await until(
      () => ts.server.db.prisma.webhookDelivery.findMany({ where: { tenantId } }),
      (ds) => ds[0]?.status === 'dead_lettered',
    );
    expect(hits.map((h) => h.attempt)).toEqual(['1', '2', '3', '4', '5']);
    const act = await call(ts.url, 'POST', '/v1/frameworks/eu-ai-act/activate', { token: ownerToken, body: {} });
    expect(act.status, JSON.stringify(act.body)).toBeLessThan(300);
    await page.goto(`${appUrl}/overview`);
    expect(await page.locator('tr', { hasText: receiverUrl }).textContent()).toContain('dead lettered');
    expect(await page.locator('tr', { hasText: 'eu-ai-act' }).count()).toBe(1);
    expect(await page.content()).toContain('api_key.revoked');
    await shot(page, 'web-overview');
  });

  it('the operator finds the dead-lettered delivery, and replays it after a confirmation once the receiver is back', async () => {
    await consolePage.goto(`${adminUrl}/dead-letters`);
    await consolePage.getByLabel('Tenant id').first().fill(tenantId);
    await consolePage.getByLabel('Event type').fill('assessment.created');
    await consolePage.getByRole('button', { name: 'Filter' }).click();
    const rows = consolePage.locator('tr[data-delivery-id]');
    expect(await rows.count()).toBe(1);
    const deliveryId = (await rows.first().getAttribute('data-delivery-id')) as string;
    await rows.first().locator('summary').click();
    const attempts = rows.first().locator('table tbody tr');
    expect(await attempts.count()).toBe(5);
    expect(await attempts.first().textContent()).toContain('500');
    expect(await attempts.first().textContent()).toMatch(/\d+ ms/);
    await shot(consolePage, 'console-dead-letters');

    // Another filter finds nothing.
    await consolePage.goto(`${adminUrl}/dead-letters?tenant=${tenantId}&type=tenant.created`);
    expect(await consolePage.locator('tr[data-delivery-id]').count()).toBe(0);

    await consolePage.goto(`${adminUrl}/dead-letters?tenant=${tenantId}`);
    healthy = true;
    await consolePage.getByRole('link', { name: `Replay ${deliveryId}` }).click();
    await consolePage.getByRole('heading', { name: 'Confirm the replay' }).waitFor();
    await shot(consolePage, 'console-replay-confirm');
    await new Promise((r) => setTimeout(r, 200));
    expect(hits).toHaveLength(5);
    await consolePage.getByRole('button', { name: 'Yes, replay this delivery' }).click();
    await consolePage.getByText(/1 delivery is queued again/).waitFor();

    await until(
      () => hits.length,
      (n) => n >= 6,
    );
    expect(hits[5]).toEqual({ id: hits[0]?.id, attempt: '1' });
    const d = await until(
      () => ts.server.db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: deliveryId } }),
      (x) => x.status === 'succeeded',
    );
    expect(d.replays).toBe(1);
    const trail = await call(ts.url, 'GET', '/v1/audit-trail/events?limit=20', { token: ownerToken });
    const replay = trail.body.data.find((e: { action: string }) => e.action === 'webhook_delivery.replayed');
    expect(replay).toMatchObject({ resourceId: deliveryId });
    expect(replay.actor).toMatch(/^opc_/);

    await consolePage.goto(`${adminUrl}/dispatcher`);
    expect(await consolePage.locator('#pending').textContent()).toBe('0');
    await shot(consolePage, 'console-dispatcher');
  });
});
