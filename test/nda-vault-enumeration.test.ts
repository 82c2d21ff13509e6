import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Probing the NDA vault's public route (no API key) without the access token: it used to answer
 * 404 for a document or request that does not exist and to state a request's status (pending,
 * revoked) before looking at the token. Now the token is checked first and every refusal is one
 * answer, so document ids, request ids and request states cannot be probed.
 */

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts?.close());

const MISSING_DOC = 'ndd_01JD3Z8W2M6Q4X9V7K5T1B0N3R';
const MISSING_REQ = 'ndr_01JD3Z8W2M6Q4X9V7K5T1B0N3R';
const GUESS = 'x'.repeat(32);

/** Status and body without the correlation id. */
async function content(docId: string, reqId: string, token: string) {
  const res = await call(
    ts.url,
    'GET',
    `/v1/trust/nda-vault/${docId}/content?ndaRequestId=${reqId}&accessToken=${encodeURIComponent(token)}`,
  );
  const { correlation_id, ...body } = res.body as Record<string, unknown>;
  if (res.status !== 200) expect(correlation_id).toEqual(expect.any(String));
  return { status: res.status, body };
}

describe('NDA vault: one answer for every refusal', () => {
  it('missing documents, unknown, pending and revoked requests and wrong tokens are not told apart', async () => {
    const t = await createTenant(ts);
    const doc = await t.call('POST', '/v1/trust/nda-vault', {
      body: { title: 'Pen test report', contentUri: 'https://files.example.com/pentest.pdf', mediaType: 'application/pdf' },
    });
    expect(doc.status).toBe(201);
    const pending = (
      await t.call('POST', '/v1/trust/nda-vault/requests', { body: { requesterEmail: 'p@example.com', requesterName: 'P' } })
    ).body;
    const accepted = (
      await t.call('POST', '/v1/trust/nda-vault/requests', { body: { requesterEmail: 'a@example.com', requesterName: 'A' } })
    ).body;
    const token = (await t.call('POST', `/v1/trust/nda-vault/requests/${accepted.id}/accept`, { body: {} })).body.accessToken as string;
    const revoked = (
      await t.call('POST', '/v1/trust/nda-vault/requests', { body: { requesterEmail: 'r@example.com', requesterName: 'R' } })
    ).body;
    const revokedToken = (await t.call('POST', `/v1/trust/nda-vault/requests/${revoked.id}/accept`, { body: {} })).body
      .accessToken as string;
    await t.call('POST', `/v1/trust/nda-vault/requests/${revoked.id}/revoke`, { body: {} });
    // Another tenant's accepted request and token, and a document of that tenant.
    const other = await createTenant(ts);
    const otherReq = (
      await other.call('POST', '/v1/trust/nda-vault/requests', { body: { requesterEmail: 'o@example.com', requesterName: 'O' } })
    ).body;
    const otherToken = (await other.call('POST', `/v1/trust/nda-vault/requests/${otherReq.id}/accept`, { body: {} })).body
      .accessToken as string;

    const refusals = [
      await content(MISSING_DOC, MISSING_REQ, GUESS), // nothing exists
      await content(doc.body.id, MISSING_REQ, GUESS), // the document exists
      await content(MISSING_DOC, pending.id, GUESS), // the request exists, pending
      await content(doc.body.id, pending.id, GUESS),
      await content(MISSING_DOC, accepted.id, GUESS), // the request exists, accepted
      await content(doc.body.id, accepted.id, GUESS),
      await content(doc.body.id, revoked.id, GUESS), // the request exists, revoked
      await content(doc.body.id, revoked.id, revokedToken), // its own token, once valid
      await content(doc.body.id, accepted.id, otherToken), // another request's token
      await content(MISSING_DOC, accepted.id, token), // the right token, a missing document
      await content(doc.body.id, otherReq.id, otherToken), // another tenant's NDA
    ];
    for (const r of refusals) {
      expect(r).toEqual({
        status: 403,
        body: {
          error: 'forbidden',
          message: 'No document is released to this NDA request and access token.',
          details: [{ field: 'request', issue: 'not_released' }],
          documentation_url: expect.any(String),
        },
      });
    }
    // Nothing in any refusal names a state or an id.
    for (const word of ['pending', 'revoked', 'accepted', doc.body.id, pending.id, accepted.id]) {
      expect(JSON.stringify(refusals)).not.toContain(word);
    }

    const ok = await content(doc.body.id, accepted.id, token);
    expect(ok).toMatchObject({ status: 200, body: { documentId: doc.body.id, contentUri: 'https://files.example.com/pentest.pdf' } });
  });
});
