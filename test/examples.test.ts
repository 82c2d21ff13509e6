import { spawn } from 'node:child_process';
import { generateTestHeader } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

// Each example runs the way its header says a user runs it: a child process from the repository
// root, configured only through the environment.
const root = new URL('..', import.meta.url).pathname;
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

describe('examples', () => {
  // Their types are checked by `pnpm typecheck` (the root tsconfig covers examples/). The examples
  // that call the API (quick-start, pagination, idempotency, typed-errors) run in
  // test/packaging.test.ts, compiled by tsc against the packed SDK and run with plain node as a user
  // who copies them; the webhook receivers run here, each a child process from the repository root.
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
