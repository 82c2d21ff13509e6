import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { generateTestHeader } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// Each example runs the way its header says a user runs it: a child process from the repository
// root, configured only through the environment.
const root = new URL('..', import.meta.url).pathname;
const run = promisify(execFile);
let ts: TestServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  ts = await startTestServer();
  const tenant = await createTenant(ts);
  env = { ...process.env, SVC_URL: ts.url, SVC_API_KEY: tenant.token };
});

afterAll(async () => {
  await ts?.close();
});

async function example(name: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', `examples/${name}.ts`], { cwd: root, env });
  return stdout;
}

describe('examples', () => {
  // Their types are checked by `pnpm typecheck` (the root tsconfig covers examples/) and, against
  // the packed SDK as a user installs it, by test/packaging.test.ts.
  it('quick-start creates an assessment and lists frameworks', async () => {
    const out = await example('quick-start');
    expect(out).toMatch(/^created asm_\S+ \(draft\)$/m);
    expect(out).toMatch(/^framework eu-ai-act$/m);
  }, 120_000);

  it('pagination walks every obligation', async () => {
    const out = await example('pagination');
    const total = Number(/^total (\d+)$/m.exec(out)?.[1]);
    expect(total).toBeGreaterThan(100);
    expect(out.match(/^obligation /gm)).toHaveLength(3);
  }, 120_000);

  it('idempotency gets the same assessment back on a retry', async () => {
    const out = await example('idempotency');
    const first = /^first (\S+)$/m.exec(out)?.[1];
    expect(first).toMatch(/^asm_/);
    expect(out).toContain(`retry ${first}`);
    expect(out).toMatch(/^same assessment$/m);
  }, 120_000);

  it('typed-errors reads the details and the correlation id of a 422', async () => {
    const out = await example('typed-errors');
    expect(out).toMatch(/^status 422 validation_failed$/m);
    expect(out).toMatch(/^field systemId: missing$/m);
    expect(out).toMatch(/^correlation \S+$/m);
    expect(out).not.toContain('correlation undefined');
  }, 120_000);

  for (const name of ['webhook-express', 'webhook-node-http']) {
    it(`${name} accepts a signed delivery and refuses a forged one`, async () => {
      const secret = 'whsec_examples_test';
      const child = spawn(process.execPath, ['--import', 'tsx', `examples/${name}.ts`], {
        cwd: root,
        env: { ...env, SVC_WEBHOOK_SECRET: secret, PORT: '0' },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let out = '';
      child.stdout.setEncoding('utf8');
      try {
        const port = await new Promise<number>((resolve, reject) => {
          child.stdout.on('data', (chunk: string) => {
            out += chunk;
            const m = /^listening (\d+)$/m.exec(out);
            if (m) resolve(Number(m[1]));
          });
          child.once('exit', (code) => reject(new Error(`${name} exited with ${code}: ${out}`)));
        });
        const payload = JSON.stringify({ id: 'evt_example_1', type: 'assessment.completed', data: {} });
        const post = (header: string) =>
          fetch(`http://127.0.0.1:${port}/hooks/svc`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-svc-signature': header },
            body: payload,
          });
        expect((await post(generateTestHeader({ payload, secret }))).status).toBe(204);
        const forged = await post(generateTestHeader({ payload, secret: 'whsec_someone_else' }));
        expect(forged.status).toBe(400);
        expect(await forged.json()).toEqual({ error: 'signature_mismatch' });
        await expect.poll(() => out).toMatch(/^refused signature_mismatch$/m);
        expect(out).toMatch(/^received assessment\.completed evt_example_1$/m);
      } finally {
        child.kill();
      }
    }, 120_000);
  }
});
