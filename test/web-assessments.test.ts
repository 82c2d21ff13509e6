import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inviteWebUser } from '../packages/server/src/ui/web/users.ts';
import { createTenant, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The assessment pages of the web application in a real browser (Debian's Chromium driven by
 * playwright-core): person A answers every required question of an assessment with the form of
 * each question's kind and submits it; A's own approval is refused on the page (four eyes); person
 * B returns it with a comment on one question; A sees the comment, changes that answer and submits
 * again; B approves, and the page shows the approval and the answers hash. The API agrees: the
 * answers are A's person's, the approval B's person's.
 */

const CHROMIUM = process.env.SVC_CHROMIUM ?? '/usr/bin/chromium';
const PASSWORD = 'a long enough password 42';
const A = '/v1/compliance/assessments';
const RECIPE_TYPES = ['fria', 'dpia', 'conformity', 'risk-classification', 'aims-internal-audit'];

type Json = Record<string, any>;
const tag = () => Math.random().toString(36).slice(2, 8);

let ts: TestServer;
let browser: Browser;
let appUrl: string;
let t: TenantFixture;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: the browser tests need it. Install it with scripts/ensure-chromium.sh (apt-get install chromium).`,
    );
  }
  ts = await startTestServer({ SVC_WEB_PORT: '0', SVC_CONSOLE_PORT: '0' });
  appUrl = ts.server.appUrl as string;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  t = await createTenant(ts);
});

afterAll(async () => {
  await browser?.close();
  await ts?.close();
});

/** A person of the stakeholders rail and a web user of the same email address, signed in in a browser of their own. */
async function signedInPerson(name: string, role: 'owner' | 'admin'): Promise<{ id: string; page: Page }> {
  const email = `${name.toLowerCase()}.${tag()}@example.com`;
  const person = await t.call('POST', '/v1/stakeholders/users', { body: { name, email } });
  expect(person.status, JSON.stringify(person.body)).toBe(201);
  const invitation = await inviteWebUser(
    ts.server.db.prisma,
    { actor: 'test-suite', correlationId: `cor_test_${tag()}` },
    { tenantId: t.tenantId, email, role },
  );
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  await page.goto(`${appUrl}/sign-in/link?token=${invitation.token}`);
  await page.getByLabel(/New password/).fill(PASSWORD);
  await page.getByLabel('The same password again').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set the password and sign in' }).click();
  await page.waitForURL(`${appUrl}/overview`);
  return { id: person.body.id as string, page };
}

async function questions(id: string, query = ''): Promise<Json[]> {
  const res = await t.call('GET', `${A}/${id}/questions?limit=200${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.cursor).toBeNull();
  return res.body.data;
}

const assessmentOf = async (id: string): Promise<Json> => (await t.call('GET', `${A}/${id}`)).body;
const card = (page: Page, key: string) => page.locator(`article[data-question="${key}"]`);

/** Clicks a form's button and waits for the page it leads to; returns that page's status. */
async function post(page: Page, path: string, click: () => Promise<void>): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === path),
    click(),
  ]);
  await page.waitForLoadState('load');
  // A success redirects (303) to the assessment's page.
  if (response.status() === 303) await page.waitForURL((u) => u.searchParams.has('done'));
  return response.status();
}

/** Fills the answer form of a question with a valid answer of its kind (the text given for text) and saves it. */
async function answerInPage(page: Page, assessmentId: string, q: Json, evidenceId: string, text = `Answer to ${q.key}.`) {
  const form = card(page, q.key).locator('form');
  switch (q.kind) {
    case 'yes_no':
      await form.getByLabel('Yes', { exact: true }).check();
      break;
    case 'requirement':
      await form.getByLabel('Compliant', { exact: true }).check();
      break;
    case 'choice':
      await form.locator('input[type="radio"][name="value"]').first().check();
      break;
    case 'scale':
      await form.locator('input[type="number"][name="value"]').fill('4');
      break;
    case 'evidence':
      await form.locator('input[name="evidenceIds"]').fill(evidenceId);
      break;
    default:
      await form.locator('textarea[name="value"]').fill(text);
  }
  const status = await post(page, `/assessments/${assessmentId}/questions/${q.key}/answer`, () =>
    form.getByRole('button', { name: 'Save the answer' }).click(),
  );
  if (status !== 303) throw new Error(`answer to ${q.key}: ${status} ${await page.locator('#page-error').textContent()}`);
}

describe('assessment pages in a browser', { timeout: 300_000 }, () => {
  let ana: { id: string; page: Page };
  let ben: { id: string; page: Page };
  let assessmentId: string;
  let evidenceId: string;
  let commented: Json;

  it('lists the tenant’s assessments and opens the one with the fewest required questions', async () => {
    ana = await signedInPerson('Ana', 'admin');
    ben = await signedInPerson('Ben', 'owner');
    const activated = await t.call('POST', '/v1/frameworks/eu-ai-act/activate', { body: {} });
    expect(activated.status, JSON.stringify(activated.body)).toBeLessThan(300);
    const ev = await t.call('POST', '/v1/compliance/evidence', {
      body: { title: 'Technical documentation', kind: 'document', controlIds: ['AIA-RMS-01'], sha256: 'b'.repeat(64) },
    });
    expect(ev.status, JSON.stringify(ev.body)).toBe(201);
    evidenceId = ev.body.id;

    // The recipe type asking the fewest required questions (before any conditional one is triggered).
    const counts: { type: string; id: string; required: number }[] = [];
    for (const type of RECIPE_TYPES) {
      const created = await t.call('POST', A, { body: { type, systemId: `sys_${tag()}`, jurisdiction: 'eu/de', title: `Web ${type}` } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      counts.push({ type, id: created.body.id, required: (await questions(created.body.id, '&required=true')).length });
    }
    counts.sort((x, y) => x.required - y.required);
    const chosen = counts[0] as (typeof counts)[number];
    assessmentId = chosen.id;
    expect(chosen.required).toBeGreaterThan(0);

    await ana.page.goto(`${appUrl}/assessments`);
    expect(await ana.page.getByRole('heading', { level: 1 }).textContent()).toBe('Assessments');
    expect(await ana.page.locator('tr[data-assessment-id]').count()).toBe(RECIPE_TYPES.length);
    await ana.page.getByRole('link', { name: `Web ${chosen.type}` }).click();
    await ana.page.waitForURL(`${appUrl}/assessments/${assessmentId}`);
    expect(await ana.page.locator('#assessment-status').textContent()).toBe('draft');
    const all = await questions(assessmentId);
    expect(await ana.page.locator('article[data-question]').count()).toBe(all.length);
    const stages = (await assessmentOf(assessmentId)).stages as Json[];
    expect(await ana.page.locator('tr[data-stage]').count()).toBe(stages.length);
    // Questions are grouped under their stage's heading.
    const first = all[0] as Json;
    expect(await ana.page.locator(`section[aria-labelledby="stage-${first.stage}"] article[data-question="${first.key}"]`).count()).toBe(1);
  });

  it('A answers every required question with the form of its kind; the API records A’s person as the author', async () => {
    const page = ana.page;
    let answered = 0;
    for (let round = 0; round < 5; round++) {
      const open = await questions(assessmentId, '&required=true&answered=false');
      if (open.length === 0) break;
      for (const q of open) {
        await answerInPage(page, assessmentId, q, evidenceId);
        answered++;
      }
    }
    expect(await questions(assessmentId, '&required=true&answered=false')).toEqual([]);
    expect(answered).toBeGreaterThan(0);
    const done = (await questions(assessmentId)).filter((q) => q.answer);
    expect(done.length).toBe(answered);
    expect(new Set(done.map((q) => q.answer.answeredBy))).toEqual(new Set([ana.id]));
    const a = await assessmentOf(assessmentId);
    expect(a).toMatchObject({ status: 'in_progress', completion: 1 });
    commented = done.find((q) => q.kind === 'text') ?? (done[0] as Json);
    expect(await card(page, commented.key).locator('[data-value]').textContent()).toBe(String(commented.answer.value));
    expect(await page.locator('#assessment-status').textContent()).toBe('in progress');
  });

  it('A submits; A’s own approval is refused on the page (four eyes) and nothing changes', async () => {
    const page = ana.page;
    await page.goto(`${appUrl}/assessments/${assessmentId}`);
    const submitted = await post(page, `/assessments/${assessmentId}/submit`, () =>
      page.getByRole('button', { name: 'Submit for review' }).click(),
    );
    expect(submitted).toBe(303);
    expect(await page.locator('#assessment-status').textContent()).toBe('in review');
    // A is an admin: the role may approve, the person may not, having answered.
    const refused = await post(page, `/assessments/${assessmentId}/approve`, () =>
      page.getByRole('button', { name: 'Approve the assessment' }).click(),
    );
    expect(refused).toBe(403);
    const error = (await page.locator('#page-error').textContent()) ?? '';
    expect(error).toContain('Four eyes');
    expect(error).toContain(ana.id);
    expect(error).not.toMatch(/at \w+ \(|node_modules|\.ts:\d+/);
    expect(await page.locator('#assessment-status').textContent()).toBe('in review');
    const a = await assessmentOf(assessmentId);
    expect(a).toMatchObject({ status: 'in_review', approvedBy: null, answersHash: null, submittedBy: ana.id });
    // In review, answers cannot change: the page offers no answer form.
    await page.goto(`${appUrl}/assessments/${assessmentId}`);
    expect(await page.locator('form[action$="/answer"]').count()).toBe(0);
  });

  it('B returns it with a comment on one question; A sees the comment, changes the answer and submits again', async () => {
    const page = ben.page;
    await page.goto(`${appUrl}/assessments/${assessmentId}`);
    expect(await page.locator('#assessment-status').textContent()).toBe('in review');
    const comment = `Name the products concerned (${tag()}).`;
    await page.getByLabel(`Review comment on ${commented.key}`).fill(comment);
    const returned = await post(page, `/assessments/${assessmentId}/return`, () =>
      page.getByRole('button', { name: 'Return with comments' }).click(),
    );
    expect(returned).toBe(303);
    expect(await page.locator('#assessment-status').textContent()).toBe('in progress');
    expect((await assessmentOf(assessmentId)).status).toBe('in_progress');

    const mine = ana.page;
    await mine.goto(`${appUrl}/assessments/${assessmentId}`);
    const review = card(mine, commented.key).locator('[data-review]');
    expect(await review.textContent()).toContain(comment);
    expect(await review.textContent()).toContain(ben.id);
    await answerInPage(mine, assessmentId, commented, evidenceId, 'Consumer loans and credit cards up to EUR 50,000.');
    // The new answer clears the comment.
    expect(await card(mine, commented.key).locator('[data-review]').count()).toBe(0);
    const changed = (await questions(assessmentId)).find((q) => q.key === commented.key) as Json;
    expect(changed.answer).toMatchObject({ version: 2, answeredBy: ana.id });
    expect(changed.review).toBeNull();
    const again = await post(mine, `/assessments/${assessmentId}/submit`, () =>
      mine.getByRole('button', { name: 'Submit for review' }).click(),
    );
    expect(again).toBe(303);
    expect((await assessmentOf(assessmentId)).status).toBe('in_review');
  });

  it('B approves: the page shows the approval and the answers hash, and the API agrees', async () => {
    const page = ben.page;
    await page.goto(`${appUrl}/assessments/${assessmentId}`);
    const approved = await post(page, `/assessments/${assessmentId}/approve`, () =>
      page.getByRole('button', { name: 'Approve the assessment' }).click(),
    );
    expect(approved).toBe(303);
    expect(await page.locator('#assessment-status').textContent()).toBe('approved');
    const hash = ((await page.locator('#answers-hash').textContent()) ?? '').trim();
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(await page.locator('#approved-by').textContent()).toContain(ben.id);
    const a = await assessmentOf(assessmentId);
    expect(a).toMatchObject({ status: 'approved', approvedBy: ben.id, answersHash: hash });

    // Frozen: the page offers no answer form, and a late answer posted anyway is refused (409) on the page.
    const mine = ana.page;
    await mine.goto(`${appUrl}/assessments/${assessmentId}`);
    expect(await mine.locator('form[action$="/answer"]').count()).toBe(0);
    const late = await mine.evaluate<number>(`(async () => {
      const csrf = document.querySelector('input[name="_csrf"]').value;
      const body = new URLSearchParams({ _csrf: csrf, value: 'Too late.' });
      const r = await fetch('/assessments/${assessmentId}/questions/${commented.key}/answer', { method: 'POST', body });
      return r.status;
    })()`);
    expect(late).toBe(409);
    expect((await assessmentOf(assessmentId)).answersHash).toBe(hash);
  });
});
