import { execFile, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { generateTestHeader } from '@svc/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPages, createTenant, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * The Python SDK (sdk-python) as a user gets it: installed with pip into a fresh venv from
 * the folder and from a wheel built from it, with no package index, then driven against a live
 * server: the examples, the unittest module sdk-python/tests (typed errors, pages, 429
 * retries, a POST retried after a dropped connection, a PDF, webhooks), the webhook receiver
 * example, `mypy --strict`, and the freshness of the generated code.
 *
 * Needs python3 >= 3.10 (with venv) and mypy: missing, the file fails when CI=true and is skipped
 * otherwise.
 */

const root = new URL('..', import.meta.url).pathname;
const pkg = join(root, 'sdk-python');
const run = promisify(execFile);

function findTool(command: string, args: string[], accept: (out: string) => boolean): string | undefined {
  try {
    const out = execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return accept(out) ? command : undefined;
  } catch {
    return undefined;
  }
}
const python = findTool('python3', ['-c', 'import sys, venv; print(sys.version_info >= (3, 10))'], (o) => o.trim() === 'True');
const mypy = ['mypy', '/usr/bin/mypy'].find((m) => findTool(m, ['--version'], (o) => o.startsWith('mypy ')));
const missing = [python ? '' : 'python3 >= 3.10 with venv', mypy ? '' : 'mypy'].filter(Boolean);

if (missing.length && process.env.CI === 'true') {
  describe('python sdk', () => {
    it('has its toolchain', () => {
      expect.fail(`CI=true and ${missing.join(' and ')} missing: the Python SDK cannot be tested`);
    });
  });
}

/** A child process's output; a non-zero exit throws with all of it, so Python's failures surface here. */
async function sh(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  try {
    const { stdout, stderr } = await run(command, args, {
      cwd: options.cwd ?? root,
      env: options.env ?? process.env,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} exited with ${e.code}\n--- stdout\n${e.stdout}\n--- stderr\n${e.stderr}`);
  }
}

/**
 * A TCP proxy to the server. The first connection's request is forwarded, and the client's socket
 * is destroyed as soon as the response starts to come back, so the server did the work and the
 * client never hears of it; later connections are forwarded both ways.
 */
async function droppingProxy(target: URL): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let count = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const first = count === 0;
    count++;
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream);
    if (first) {
      upstream.once('data', () => {
        client.destroy();
        upstream.destroy();
      });
    } else {
      upstream.pipe(client);
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => count,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.skipIf(missing.length > 0)('python sdk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sdk-python-'));
  const folderVenv = join(dir, 'venv-folder');
  const wheelVenv = join(dir, 'venv-wheel');
  const py = (venv: string) => join(venv, 'bin', 'python');
  let ts: TestServer;
  let tenant: TenantFixture;
  let env: NodeJS.ProcessEnv;
  let wheel: string;

  beforeAll(async () => {
    // The venvs and the server start side by side.
    const venvs = (async () => {
      await sh(python as string, ['-m', 'venv', folderVenv]);
      const pip = [py(folderVenv), '-m', 'pip', '--disable-pip-version-check', '--no-input'] as const;
      const offline = ['--no-index', '--no-cache-dir'];
      await sh(pip[0], [...pip.slice(1), 'install', ...offline, pkg]);
      await sh(pip[0], [...pip.slice(1), 'wheel', ...offline, '--no-deps', '-w', join(dir, 'dist'), pkg]);
      wheel = join(dir, 'dist', readdirSync(join(dir, 'dist')).find((f) => f.endsWith('.whl')) as string);
      await sh(python as string, ['-m', 'venv', '--without-pip', wheelVenv]);
      await sh(pip[0], [...pip.slice(1), '--python', py(wheelVenv), 'install', ...offline, wheel]);
    })();
    ts = await startTestServer({ SVC_ROLE: 'all', SVC_JOBS_POLL_MS: '100' });
    tenant = await createTenant(ts);
    env = { ...process.env, SVC_URL: ts.url, SVC_API_KEY: tenant.token, PYTHONDONTWRITEBYTECODE: '1' };
    await venvs;
  }, 180_000);

  afterAll(async () => {
    await ts?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('installs from the folder and from a wheel built with no package index', async () => {
    expect(wheel).toMatch(/svc_sdk-0\.1\.0-py3-none-any\.whl$/);
    for (const venv of [folderVenv, wheelVenv]) {
      const probe = 'import pathlib, svc_sdk; p = pathlib.Path(svc_sdk.__file__).parent; print(p); print((p / "py.typed").exists())';
      const { stdout } = await sh(py(venv), ['-c', probe], { cwd: dir });
      const [location, typed] = stdout.trim().split('\n');
      expect(location).toBe(join(venv, 'lib', readdirSync(join(venv, 'lib'))[0] as string, 'site-packages', 'svc_sdk'));
      expect(typed).toBe('True');
    }
  });

  it('runs the examples and prints what the TypeScript examples print', async () => {
    const example = async (name: string) => (await sh(py(wheelVenv), [join(pkg, 'examples', `${name}.py`)], { env, cwd: dir })).stdout;
    const quick = await example('quick_start');
    expect(quick).toMatch(/^created asm_\S+ \(draft\)$/m);
    expect(quick).toMatch(/^framework eu-ai-act$/m);

    const pages = await example('pagination');
    expect(Number(/^total (\d+)$/m.exec(pages)?.[1])).toBeGreaterThan(100);
    expect(pages.match(/^obligation /gm)).toHaveLength(3);

    const retry = await example('idempotency');
    const first = /^first (\S+)$/m.exec(retry)?.[1];
    expect(first).toMatch(/^asm_/);
    expect(retry).toContain(`retry ${first}`);
    expect(retry).toMatch(/^same assessment$/m);

    const errors = await example('typed_errors');
    expect(errors).toMatch(/^status 422 validation_failed$/m);
    expect(errors).toMatch(/^field systemId: missing$/m);
    expect(errors).toMatch(/^correlation \S+$/m);
    expect(errors).not.toContain('correlation None');
  }, 60_000);

  it('passes its unittest module against the live server', async () => {
    // Rows for the paginated walk, and the ids of every page collected over HTTP to compare with.
    expect((await tenant.call('POST', '/v1/frameworks/eu-ai-act/activate')).status).toBeLessThan(300);
    const obligationIds = (await collectPages<{ id: string }>(tenant, '/v1/compliance/obligations')).map((o) => o.id);
    const limited = await createTenant(ts, { rateLimitPerSecond: 1 });
    const payload = JSON.stringify({
      specversion: '1.0',
      id: 'evt_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
      source: `${ts.url}/v1/compliance/assessments/asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R`,
      type: 'assessment.completed',
      datacontenttype: 'application/json',
      time: new Date().toISOString(),
      subject: 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R',
      tenantid: tenant.tenantId,
      data: { id: 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3R', status: 'completed' },
    });
    const secret = 'whsec_python_sdk_test';
    const fixtures = join(dir, 'fixtures.json');
    writeFileSync(
      fixtures,
      JSON.stringify({ obligationIds, webhook: { payload, secret, header: generateTestHeader({ payload, secret }) } }),
    );
    const proxy = await droppingProxy(new URL(ts.url));
    try {
      const { stdout, stderr } = await sh(py(folderVenv), ['-m', 'unittest', '-v', 'test_live'], {
        cwd: join(pkg, 'tests'),
        env: { ...env, SVC_TEST_LIMITED_KEY: limited.token, SVC_TEST_PROXY_URL: proxy.url, SVC_TEST_FIXTURES: fixtures },
      });
      // unittest reports on stderr: every test ran, none skipped.
      expect(stderr).toMatch(/^OK$/m);
      expect(stderr).not.toMatch(/skipped/);
      expect(Number(/^Ran (\d+) tests/m.exec(stderr)?.[1])).toBeGreaterThanOrEqual(14);
      // Over HTTP: the POST reached the server twice through the proxy and made one assessment.
      expect(proxy.connections()).toBe(2);
      const system = /^dropped-connection system (\S+)$/m.exec(stdout)?.[1];
      expect(system).toBeTruthy();
      const rows = await tenant.call('GET', `/v1/compliance/assessments?systemId=${system}`);
      expect(rows.body.data).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('webhook_receiver.py accepts a signed delivery and refuses a forged one', async () => {
    const secret = 'whsec_examples_test';
    const child = spawn(py(wheelVenv), [join(pkg, 'examples', 'webhook_receiver.py')], {
      cwd: dir,
      env: { ...env, SVC_WEBHOOK_SECRET: secret, PORT: '0', PYTHONUNBUFFERED: '1' },
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
        child.once('exit', (code) => reject(new Error(`webhook_receiver.py exited with ${code}: ${out}`)));
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
      const stale = await post(generateTestHeader({ payload, secret, timestamp: Math.floor(Date.now() / 1000) - 301 }));
      expect(await stale.json()).toEqual({ error: 'timestamp_too_old' });
      await expect.poll(() => out).toMatch(/^refused timestamp_too_old$/m);
      expect(out).toMatch(/^received assessment\.completed evt_example_1$/m);
      expect(out).toMatch(/^refused signature_mismatch$/m);
    } finally {
      child.kill();
    }
  }, 60_000);

  it('passes mypy --strict on the package, its examples and its tests', async () => {
    // A cache of its own: the figure is a cold run over the ~34,000 generated lines.
    const started = performance.now();
    const { stdout } = await sh(mypy as string, ['--strict', '--cache-dir', join(dir, 'mypy-cache'), 'src/svc_sdk', 'examples', 'tests'], {
      cwd: pkg,
      env: { ...process.env, MYPYPATH: 'src:examples' },
    });
    expect(stdout).toMatch(/^Success: no issues found in \d+ source files$/m);
    expect(performance.now() - started).toBeLessThan(60_000);
    // And it refuses what the types forbid: an unknown enum value and a missing required key.
    const probe = join(dir, 'probe.py');
    writeFileSync(
      probe,
      [
        'from svc_sdk import Client',
        'client = Client(api_key="k")',
        'client.compliance.assessments.create(body={"type": "horoscope", "systemId": "s", "jurisdiction": "eu/de"})',
        'client.compliance.assessments.create(body={"type": "fria", "jurisdiction": "eu/de"})',
        'asm = client.compliance.assessments.get("asm_1")',
        'asm["nope"]',
        '',
      ].join('\n'),
    );
    const refused = await run(mypy as string, ['--strict', '--cache-dir', join(dir, 'mypy-cache'), probe], {
      cwd: pkg,
      env: { ...process.env, MYPYPATH: 'src' },
    }).then(
      () => '',
      (err: { stdout?: string }) => err.stdout ?? '',
    );
    expect(refused).toMatch(/probe\.py:3: error: .*"type"/);
    expect(refused).toMatch(/probe\.py:4: error: Missing key "systemId"/);
    expect(refused).toMatch(/probe\.py:6: error: .*"nope"/);
  }, 90_000);

  it('has generated code that matches the OpenAPI document, and --check names a stale file', async () => {
    const script = join(root, 'scripts/sdk/python.mjs');
    // Every operation of the committed document, counted from it.
    const doc = JSON.parse(readFileSync(join(root, 'packages/contract/openapi.json'), 'utf8')) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const operations = Object.values(doc.paths).flatMap((item) =>
      Object.keys(item).filter((m) => ['get', 'put', 'post', 'patch', 'delete'].includes(m)),
    ).length;
    expect((await sh(process.execPath, [script, '--check'])).stdout).toContain(`up to date (${operations} operations)`);
    const copy = join(dir, 'generated');
    cpSync(join(pkg, 'src/svc_sdk/_generated'), copy, { recursive: true });
    copyFileSync(join(copy, 'client.py'), join(copy, 'resources', 'stray.py'));
    writeFileSync(join(copy, 'types.py'), '# edited by hand\n', { flag: 'a' });
    const stale = await run(process.execPath, [script, '--check', '--out', copy]).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code?: number; stderr?: string }) => ({ code: err.code, stderr: err.stderr ?? '' }),
    );
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(join(copy, 'types.py'));
    expect(stale.stderr).toContain(`${join(copy, 'resources', 'stray.py')} (not generated)`);
    expect(stale.stderr).not.toContain('client.py\n');
    // Writing the copy back makes it fresh: the output is a function of the document alone.
    await sh(process.execPath, [script, '--out', copy]);
    expect(existsSync(join(copy, 'resources', 'stray.py'))).toBe(false);
    await sh(process.execPath, [script, '--check', '--out', copy]);
  }, 60_000);
});
