import { randomBytes } from 'node:crypto';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { inviteWebUser } from '../packages/server/src/ui/web/users.ts';
import { createTenant } from './support/api.ts';
import { Jar } from './support/browser-jar.ts';
import { REDIS_URL, redisAvailable } from './support/redis.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * Attacks on the web application's password sign-in and on /metrics, each performed: guessing one
 * account's password from many addresses (in parallel too), locking a person out with failures,
 * spraying accounts from one address or one network, flooding the process with password hashes
 * for made-up accounts, using a sign-in link an operator has replaced, and a /metrics left open
 * on a public interface without a word. Client addresses come from X-Forwarded-For, which the
 * servers here trust from loopback (SVC_TRUST_PROXY=loopback), as behind a reverse proxy.
 */

const PASSWORD = 'correct horse battery staple';
const run = randomBytes(4).toString('hex');
const emailOf = (name: string) => `${name}-${run}@sign-in-abuse.test`;
const retryAfter = (r: { headers: Headers }) => Number(r.headers.get('retry-after'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * The guard counts attempts in Redis or in the process, never in the database: its walks run on the
 * embedded pass only (the PostgreSQL pass would repeat them). What the database does (revoking
 * earlier links under a row lock) runs on both.
 */
const embeddedPass = !process.env.DATABASE_URL;

/** Invites a person (as the console does) and sets their password through the link, from `ip`. */
async function person(ts: TestServer, appUrl: string, tenantId: string, name: string, ip: string) {
  const email = emailOf(name);
  const inv = await inviteWebUser(ts.server.db.prisma, { actor: 'test', correlationId: 'cor_test' }, { tenantId, email, role: 'viewer' });
  const jar = new Jar(appUrl, ip);
  const page = `/sign-in/link?token=${inv.token}`;
  const set = await jar.req('POST', '/sign-in/link', {
    _csrf: await jar.csrf(page),
    token: inv.token,
    password: PASSWORD,
    confirm: PASSWORD,
  });
  expect(set.status).toBe(303);
  return email;
}

describe('password guessing and lock-outs', () => {
  let ts: TestServer;
  let appUrl: string;
  let tenantId: string;
  beforeAll(async () => {
    ts = await startTestServer({
      SVC_WEB_PORT: '0',
      SVC_CONSOLE: 'false',
      SVC_TRUST_PROXY: 'loopback',
      // Short so the test can wait it out (the default is 5 minutes): 5 s after the fifth failure,
      // then 10 s, the cap.
      SVC_SIGN_IN_BACKOFF_MAX_SECONDS: '10',
      SVC_SIGN_IN_FAILURES_PER_ADDRESS: '6',
      SVC_SIGN_IN_FAILURES_PER_SUBNET: '10',
    });
    appUrl = ts.server.appUrl as string;
    tenantId = (await createTenant(ts)).tenantId;
  });
  afterAll(() => ts?.close());

  it.runIf(embeddedPass)(
    'guesses at one account from 30 addresses at once get 5 tries, then a backoff that doubles up to its cap',
    async () => {
      const victim = await person(ts, appUrl, tenantId, 'victim', '192.0.2.1');
      // Each guess from its own /24, so no address or network limit applies: only the account's.
      const jars = Array.from({ length: 30 }, (_, i) => new Jar(appUrl, `10.${i + 1}.${i + 7}.9`));
      const tokens = await Promise.all(jars.map((j) => j.csrf()));
      const pending = jars.map((j, i) =>
        j.req('POST', '/sign-in', { _csrf: tokens[i] as string, email: victim, password: `guess number ${i}` }),
      );
      // As soon as one guess is refused the account is locked (the 5 let through are still hashing):
      // even the right password now waits out the lock, from an address the account never used.
      const all = Promise.all(pending);
      await Promise.race([all, ...pending.map((p) => p.then((r): Promise<unknown> | unknown => (r.status === 429 ? r : all)))]);
      const waiting = await new Jar(appUrl, '10.200.1.1').signIn(victim, PASSWORD);
      expect(waiting.status).toBe(429);
      const results = await all;
      const statuses = results.map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(5);
      expect(statuses.filter((s) => s === 429)).toHaveLength(25);
      const refused = results.find((r) => r.status === 429) as (typeof results)[number];
      expect(retryAfter(refused)).toBeGreaterThanOrEqual(1);
      expect(retryAfter(refused)).toBeLessThanOrEqual(5);
      expect(refused.text).toContain('Too many failed attempts for this account');

      // After the wait one more guess is let through, and the next waits twice as long (the cap here).
      await sleep(retryAfter(waiting) * 1000 + 100);
      expect((await new Jar(appUrl, '10.201.1.1').signIn(victim, 'yet another guess')).status).toBe(401);
      const again = await new Jar(appUrl, '10.202.1.1').signIn(victim, 'and one more');
      expect(again.status).toBe(429);
      expect(retryAfter(again)).toBeGreaterThan(5);
      expect(retryAfter(again)).toBeLessThanOrEqual(10);
    },
  );

  it.runIf(embeddedPass)(
    "a stranger's failures delay the person at most the cap, and not at all from an address they signed in from",
    async () => {
      const alice = await person(ts, appUrl, tenantId, 'alice', '192.0.2.10');
      const stranger = new Jar(appUrl, '198.51.100.7');
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) statuses.push((await stranger.signIn(alice, `not her password ${i}`)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);

      // From her own address (where she set her password) the right password passes at once.
      const home = await new Jar(appUrl, '192.0.2.10').signIn(alice, PASSWORD);
      expect(home.status).toBe(303);
      expect(home.headers.get('location')).toBe('/overview');

      // The stranger starts again (from another address: the first is near its own limit); from a
      // new address she waits at most the cap, then gets in.
      const again = new Jar(appUrl, '198.51.101.7');
      const second: number[] = [];
      for (let i = 0; i < 6; i++) second.push((await again.signIn(alice, `still not it ${i}`)).status);
      expect(second).toEqual([401, 401, 401, 401, 401, 429]);
      const travelling = new Jar(appUrl, '203.0.113.5');
      const refused = await travelling.signIn(alice, PASSWORD);
      expect(refused.status).toBe(429);
      expect(retryAfter(refused)).toBeLessThanOrEqual(5);
      await sleep(retryAfter(refused) * 1000 + 100);
      expect((await travelling.signIn(alice, PASSWORD)).status).toBe(303);
    },
  );

  it.runIf(embeddedPass)(
    'one address spraying many accounts stops at its limit, and so does a network of addresses',
    async () => {
      // The address and network limits count in fixed 15-minute windows: a walk that straddles a
      // window's end is counted in two windows and would not reach the limit. Start clear of it.
      const WINDOW_MS = 15 * 60_000;
      const left = WINDOW_MS - (Date.now() % WINDOW_MS);
      if (left < 60_000) await sleep(left + 500);
      const sprayer = new Jar(appUrl, '192.0.2.77');
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) statuses.push((await sprayer.signIn(emailOf(`spray-${i}`), 'Summer2026!')).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429]);

      // Twelve addresses of one /24, one guess each: the network's limit (10) stops them.
      const fromNetwork: number[] = [];
      for (let i = 1; i <= 12; i++)
        fromNetwork.push((await new Jar(appUrl, `198.18.5.${i}`).signIn(emailOf(`net-${i}`), 'Winter2026!')).status);
      expect(fromNetwork).toEqual([...Array(10).fill(401), 429, 429]);
      const refused = await new Jar(appUrl, '198.18.5.200').signIn(emailOf('net-x'), 'Winter2026!');
      expect(refused.status).toBe(429);
      expect(refused.text).toContain('from your network');
      expect(retryAfter(refused)).toBeGreaterThan(0);
      // The next /24 is another network.
      expect((await new Jar(appUrl, '198.18.6.1').signIn(emailOf('net-y'), 'Winter2026!')).status).toBe(401);

      // IPv6: the /64 is the network (one host usually has all of it).
      const v6: number[] = [];
      for (let i = 1; i <= 11; i++)
        v6.push((await new Jar(appUrl, `2001:db8:5:7::${i.toString(16)}`).signIn(emailOf(`v6-${i}`), 'Autumn2026!')).status);
      expect(v6).toEqual([...Array(10).fill(401), 429]);
      expect((await new Jar(appUrl, '2001:db8:5:8::1').signIn(emailOf('v6-y'), 'Autumn2026!')).status).toBe(401);
    },
    120_000,
  ); // up to a minute of waiting for a window to begin

  it('a new sign-in link revokes the earlier unused ones', async () => {
    const prisma = ts.server.db.prisma;
    const who = { actor: 'test', correlationId: 'cor_test' };
    const email = emailOf('relinked');
    const first = await inviteWebUser(prisma, who, { tenantId, email, role: 'viewer' });
    const second = await inviteWebUser(prisma, who, { tenantId, email, role: 'viewer' });
    const jar = new Jar(appUrl, '192.0.2.200');
    expect((await jar.req('GET', `/sign-in/link?token=${first.token}`)).status).toBe(404);
    const csrf = await jar.csrf(`/sign-in/link?token=${second.token}`);
    const stale = await jar.req('POST', '/sign-in/link', { _csrf: csrf, token: first.token, password: PASSWORD, confirm: PASSWORD });
    expect(stale.status).toBe(404);
    expect((await prisma.webUser.findUniqueOrThrow({ where: { email } })).passwordHash).toBeNull();

    // Issued at the same moment, still only one link is left to use.
    await Promise.all([1, 2, 3].map(() => inviteWebUser(prisma, who, { tenantId, email, role: 'viewer' })));
    const usable = await prisma.webSignInLink.count({ where: { userId: first.userId, usedAt: null, revokedAt: null } });
    expect(usable).toBe(1);
    expect((await jar.req('GET', `/sign-in/link?token=${second.token}`)).status).toBe(404);
  });
});

describe.runIf(embeddedPass)('password hashes at once', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer({ SVC_WEB_PORT: '0', SVC_CONSOLE: 'false', SVC_TRUST_PROXY: 'loopback', SVC_SIGN_IN_HASH_CONCURRENCY: '1' });
  });
  afterAll(() => ts?.close());

  it('sign-ins for made-up accounts in parallel never run more hashes than the cap; the excess gets 503 with Retry-After', async () => {
    // Every scrypt of the process is counted: how many run at once, and how many ran.
    const crypto = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
    const original = crypto.scrypt;
    let running = 0;
    let peak = 0;
    let calls = 0;
    crypto.scrypt = ((...args: unknown[]) => {
      const done = args.pop() as (err: Error | null, key: Buffer) => void;
      running++;
      calls++;
      peak = Math.max(peak, running);
      (original as (...a: unknown[]) => void)(...args, (err: Error | null, key: Buffer) => {
        running--;
        done(err, key);
      });
    }) as typeof crypto.scrypt;
    syncBuiltinESMExports();
    try {
      const appUrl = ts.server.appUrl as string;
      const jars = Array.from({ length: 24 }, (_, i) => new Jar(appUrl, `10.${i + 1}.0.${i + 1}`));
      const tokens = await Promise.all(jars.map((j) => j.csrf()));
      const results = await Promise.all(
        jars.map((j, i) =>
          j.req('POST', '/sign-in', { _csrf: tokens[i] as string, email: emailOf(`nobody-${i}`), password: 'any password at all' }),
        ),
      );
      const busy = results.filter((r) => r.status === 503);
      const answered = results.filter((r) => r.status === 401);
      expect(busy.length + answered.length).toBe(24);
      expect(busy.length).toBeGreaterThan(0);
      for (const r of busy) expect(r.headers.get('retry-after')).toBe('1');
      expect(peak).toBe(1);
      // A made-up account costs one hash like a real one (a dummy), and a refused one costs none.
      expect(calls).toBe(answered.length);
      const metrics = await (await fetch(`${ts.url}/metrics`)).text();
      expect(metrics).toMatch(/^svc_sign_in_refusals_total\{reason="busy"\} [1-9]/m);
    } finally {
      crypto.scrypt = original;
      syncBuiltinESMExports();
    }
  });
});

/** The JSON log lines a start writes. */
async function startLines(env: NodeJS.ProcessEnv): Promise<{ lines: Record<string, unknown>[]; ts: TestServer }> {
  const written: string[] = [];
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stdout.write);
  let ts: TestServer;
  try {
    ts = await startTestServer({ SVC_WEB: 'false', SVC_CONSOLE: 'false', SVC_LOG_LEVEL: 'warn', ...env });
  } finally {
    spy.mockRestore();
  }
  const lines = written.flatMap((w) => {
    try {
      return [JSON.parse(w) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
  return { lines, ts };
}

describe.runIf(embeddedPass)('/metrics without a token', () => {
  const warning = (lines: Record<string, unknown>[]) => lines.find((l) => String(l.msg).includes('SVC_METRICS_TOKEN'));

  it('is announced with a warning naming SVC_METRICS_TOKEN when the API listens beyond loopback', async () => {
    delete process.env.SVC_METRICS_TOKEN;
    const { lines, ts } = await startLines({ HOST: '0.0.0.0' });
    try {
      const line = warning(lines);
      expect(line).toMatchObject({ level: 'warn', variable: 'SVC_METRICS_TOKEN', host: '0.0.0.0' });
      // Behaviour is unchanged: still open.
      expect((await fetch(`http://127.0.0.1:${ts.server.port}/metrics`)).status).toBe(200);
    } finally {
      await ts.close();
    }
  });

  it('is not announced on loopback, nor with a token', async () => {
    const local = await startLines({});
    await local.ts.close();
    expect(warning(local.lines)).toBeUndefined();
    const guarded = await startLines({ HOST: '0.0.0.0', SVC_METRICS_TOKEN: 'metrics-token-of-the-test' });
    try {
      expect(warning(guarded.lines)).toBeUndefined();
      expect((await fetch(`http://127.0.0.1:${guarded.ts.server.port}/metrics`)).status).toBe(401);
    } finally {
      await guarded.ts.close();
    }
  });
});

describe.runIf(embeddedPass && redisAvailable)('two processes share the sign-in counters through Redis', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    const env = { REDIS_URL, SVC_WEB_PORT: '0', SVC_CONSOLE: 'false', SVC_TRUST_PROXY: 'loopback' };
    a = await startTestServer(env);
    b = await startTestServer(env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  it("failures on one process count on the other: the account's backoff holds across both", async () => {
    const email = emailOf('shared');
    const octet = () => Math.floor(Math.random() * 250) + 1;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const jar = new Jar((i % 2 ? b : a).server.appUrl as string, `172.${16 + (i % 16)}.${octet()}.${octet()}`);
      statuses.push((await jar.signIn(email, `guess ${i}`)).status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });
});
