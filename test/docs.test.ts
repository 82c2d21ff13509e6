import { ERROR_CODES } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUIDES } from '../packages/server/src/docs/guides.ts';
import { call, createTenant, expectEnvelope } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/** The API reference at /docs (offline: its script is served by the service), the guides and the error pages. */
let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

async function get(path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${ts.url}${path}`, { headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('GET /docs', () => {
  it('answers the reference page without a token, loading its script from the service, not a CDN', async () => {
    const res = await get('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toContain('<script src="/docs/assets/api-reference.js"');
    expect(res.text).toContain('/v1/openapi.json');
    expect(res.text).not.toMatch(/https?:\/\/(cdn\.jsdelivr\.net|unpkg\.com|fonts\.)/);
    // The page's own policy: scripts from the service and the one inline initialiser (by nonce).
    const csp = res.headers.get('content-security-policy') ?? '';
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(csp).toContain("script-src 'self'");
    expect(res.text).toContain(`nonce="${nonce}"`);
    expect(res.text).toContain('createApiReference');
  });

  it('serves the bundle as JavaScript, and the OpenAPI document it renders', async () => {
    const js = await get('/docs/assets/api-reference.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(js.text).toContain('createApiReference');
    expect(['scalar', 'builtin']).toContain(js.headers.get('x-svc-docs-bundle'));
    const doc = await call(ts.url, 'GET', '/v1/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
  });
});

describe('guides', () => {
  it('lists every guide and serves each as HTML', async () => {
    const index = await get('/docs/guides');
    expect(index.status).toBe(200);
    for (const slug of ['authentication', 'pagination', 'idempotency', 'webhooks', 'errors']) {
      expect(GUIDES.some((g) => g.slug === slug)).toBe(true);
    }
    for (const g of GUIDES) {
      expect(index.text).toContain(`href="/docs/guides/${g.slug}"`);
      const page = await get(`/docs/guides/${g.slug}`);
      expect(page.status, g.slug).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.text).toContain(`<h1>${g.title}</h1>`);
    }
  });

  it('explains with examples: the key header, cursors, Idempotency-Key, signatures', async () => {
    expect((await get('/docs/guides/authentication')).text).toContain('Authorization: Bearer $SVC_API_KEY');
    expect((await get('/docs/guides/pagination')).text).toContain('cursor=');
    const idem = (await get('/docs/guides/idempotency')).text;
    expect(idem).toContain('Idempotency-Key');
    expect(idem).toContain('Idempotent-Replayed: true');
    expect((await get('/docs/guides/webhooks')).text).toContain('x-svc-signature');
    // The examples name the service's own address.
    expect((await get('/docs/guides/pagination')).text).toContain(`${ts.url}/v1/compliance/assessments`);
  });

  it('an unknown guide is a 404 envelope', async () => {
    const res = await call(ts.url, 'GET', '/docs/guides/nothing');
    expectEnvelope(res, 404, 'not_found');
  });
});

describe('error codes', () => {
  it('the errors page has one anchor per code of the error table', async () => {
    const page = await get('/docs/errors');
    expect(page.status).toBe(200);
    for (const code of ERROR_CODES) expect(page.text, code).toContain(`id="${code}"`);
  });

  it("a real error's documentation_url is a page of this service with the code's anchor", async () => {
    const res = await call(ts.url, 'GET', '/v1/compliance/assessments');
    const envelope = expectEnvelope(res, 401, 'unauthorized');
    expect(envelope.documentation_url).toBe(`${ts.url}/docs/errors#unauthorized`);
    const [url, anchor] = String(envelope.documentation_url).split('#');
    const page = await fetch(url as string);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`id="${anchor}"`);

    const t = await createTenant(ts);
    const invalid = expectEnvelope(await t.call('POST', '/v1/compliance/assessments', { body: {} }), 422, 'validation_failed');
    expect(invalid.documentation_url).toBe(`${ts.url}/docs/errors#validation_failed`);
  });
});
