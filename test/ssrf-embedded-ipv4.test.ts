import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, expectEnvelope, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Outbound targets written as IPv6 addresses that carry an IPv4 address to its host: NAT64
 * (64:ff9b::/96, and the local-use 64:ff9b:1::/48), IPv4-compatible (::/96) and 6to4 (2002::/16).
 * Where the network has NAT64, https://[64:ff9b::a9fe:a9fe]/ is the metadata service, and a red-team
 * run returns response excerpts: a full-read SSRF. With private targets not allowed (production),
 * every such form of a private IPv4 host is refused when the target is registered and again when it
 * is called; the same forms of a public IPv4 host are accepted.
 */

let ts: TestServer;
let t: TenantFixture;

const ATTACKS = [
  'https://[64:ff9b::a9fe:a9fe]/latest/meta-data/',
  'https://[64:ff9b::127.0.0.1]:8443/admin',
  'https://[64:ff9b::10.0.0.5]/',
  'https://[64:ff9b:1::a9fe:a9fe]/',
  'https://[::a9fe:a9fe]/latest/meta-data/',
  'https://[::127.0.0.1]/',
  'https://[2002:7f00:1::]/',
  'https://[2002:a9fe:a9fe::1]/',
];

const redTeamTarget = (url: string) => ({
  name: 'Model',
  url,
  bodyTemplate: { messages: [{ role: 'user', content: '{{prompt}}' }] },
  answerPath: 'choices.0.message.content',
  timeoutMs: 1000,
});

beforeAll(async () => {
  process.env.SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS = 'false';
  ts = await startTestServer({ SVC_WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
  t = await createTenant(ts, { tier: 'growth', rateLimitPerSecond: 100_000 });
});
afterAll(async () => {
  await ts?.close();
});

describe('SSRF through IPv6 forms of private IPv4 hosts', () => {
  it('a webhook subscription, a notification channel and a red-team target are refused for each form', async () => {
    for (const url of ATTACKS) {
      const sub = await t.call('POST', '/v1/webhook-subscriptions', { body: { url, eventTypes: ['assessment.*'] } });
      expect(expectEnvelope(sub, 422, 'validation_failed').message, url).toContain('public address');
      const slack = await t.call('POST', '/v1/notifications/slack', { body: { name: '#x', url } });
      expect(expectEnvelope(slack, 422, 'validation_failed').message, url).toContain('public address');
      const target = await t.call('POST', '/v1/red-team/targets', { body: redTeamTarget(url) });
      expect(expectEnvelope(target, 422, 'validation_failed').message, url).toContain('public address');
    }
  });

  it('the NAT64 and 6to4 forms of a public IPv4 host are accepted', async () => {
    for (const url of ['https://[64:ff9b::8.8.8.8]/hook', 'https://[2002:808:808::1]/hook']) {
      const sub = await t.call('POST', '/v1/webhook-subscriptions', { body: { url, eventTypes: ['assessment.*'] } });
      expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    }
  });

  it('a red-team target stored with such an address before the rule existed is not called when a run executes', async () => {
    const target = await t.call('POST', '/v1/red-team/targets', { body: redTeamTarget('https://llm.example.com/v1/chat') });
    expect(target.status, JSON.stringify(target.body)).toBe(201);
    // What a target registered under the earlier rule looks like.
    await ts.server.db.prisma.redTeamTarget.update({
      where: { id: target.body.id },
      data: { url: 'https://[64:ff9b::a9fe:a9fe]/latest/meta-data/' },
    });
    const run = await t.call('POST', '/v1/red-team/runs', { body: { targetId: target.body.id, categories: ['bias'] } });
    expect(run.status, JSON.stringify(run.body)).toBe(201);
    const done = await t.call('POST', `/v1/red-team/runs/${run.body.id}/execute`, { body: {} });
    expect(done.body).toMatchObject({ status: 'completed', errored: 3, score: null });
    const results = (await t.call('GET', `/v1/red-team/results?runId=${run.body.id}`)).body.data as {
      reason: string;
      responseExcerpt: unknown;
    }[];
    expect(results).toHaveLength(3);
    for (const r of results) {
      expect(r.reason).toBe('No usable answer: EPRIVATE: 64:ff9b::a9fe:a9fe is a private address');
      expect(r.responseExcerpt).toBeNull();
    }
  });
});
