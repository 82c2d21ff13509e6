import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

// The service and its CLI as a user outside the repository gets them: the four packages built,
// packed with pnpm (publishConfig swapped in, workspace: ranges turned into versions, the server's
// migrations copied in by its prepack), installed with npm into an empty folder that has neither
// the workspace nor tsx; then `svc serve` from there on a new embedded database, and every client
// command of the CLI against it, as a user types them.
const root = new URL('..', import.meta.url).pathname;
const PACKAGES = ['contract', 'sdk-ts', 'server', 'cli'];
const { packageBuildIsFresh } = (await import(join(root, 'scripts/package-source-hash.mjs') as string)) as {
  packageBuildIsFresh: (pkgDir: string) => boolean;
};

let dir: string;
let svc: string;
let env: NodeJS.ProcessEnv;
let credentialsFile: string;

interface Serve {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  stdout: () => string;
  exited: Promise<number | null>;
}

let serve: Serve | undefined;

/** The environment of a user's shell: none of the suite's own service settings. */
function userEnv(): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('SVC_') || k.startsWith('VITEST') || ['DATABASE_URL', 'REDIS_URL', 'NODE_ENV', 'NODE_OPTIONS'].includes(k)) continue;
    clean[k] = v;
  }
  return clean;
}

function run(cmd: string, args: string[], cwd: string): string {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...userEnv(), ...env }, timeout: 600_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}:\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

/** One `svc` command of the installed CLI: its exit code and output. */
function cli(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(svc, args, { cwd: dir, encoding: 'utf8', env: { ...userEnv(), ...env, ...extraEnv }, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A command that must succeed; its standard output. */
function ok(args: string[], extraEnv: NodeJS.ProcessEnv = {}): string {
  const r = cli(args, extraEnv);
  expect(r.code, `svc ${args.join(' ')}: ${r.stderr}${r.stdout}`).toBe(0);
  return r.stdout;
}

const okJson = <T = Record<string, unknown>>(args: string[]): T => JSON.parse(ok([...args, '--json'])) as T;

/** `svc serve` of the installed CLI on `dataDir`; resolves once it says where it listens. */
function startServe(dataDir: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<Serve> {
  const child = spawn(svc, ['serve', '--port', '0', '--data-dir', dataDir], {
    cwd: dir,
    env: { ...userEnv(), ...env, ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc serve did not start within 180 s:\n${err}`));
    }, 180_000);
    child.stderr?.on('data', (d: Buffer) => {
      err += d;
      const m = /svc listening on (http:\/\/\S+)/.exec(err);
      if (m?.[1]) {
        clearTimeout(timer);
        resolve({ child, url: m[1], stderr: () => err, stdout: () => out, exited });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`svc serve exited with ${code} before it listened:\n${err}\n${out.slice(-4000)}`));
    });
  });
}

/** Stops the service as a user's Ctrl-C or a process manager does; its exit code. */
async function stopServe(s: Serve): Promise<number | null> {
  s.child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 30_000));
  const code = await Promise.race([s.exited, timeout]);
  if (code === 'timeout') {
    s.child.kill('SIGKILL');
    throw new Error(`svc serve did not stop within 30 s of SIGTERM:\n${s.stderr()}`);
  }
  return code;
}

async function waitForAnswer(url: string): Promise<Response> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/v1/openapi.json`);
      if (res.ok) return res;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

// Independent of the database under the suite (it starts its own embedded one): the embedded pass
// of CI runs it, the PostgreSQL pass skips it.
describe.skipIf(Boolean(process.env.DATABASE_URL))('the service and the CLI installed from packed tarballs with npm', () => {
  const migrations = readdirSync(join(root, 'prisma/migrations')).filter((m) =>
    existsSync(join(root, 'prisma/migrations', m, 'migration.sql')),
  );

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-install-'));
    credentialsFile = join(dir, 'home', '.svc', 'credentials.json');
    // The user's own cache folder, empty: the first start is the one a new user sees (no template
    // cached, only the one the package ships).
    env = { NODE_OPTIONS: '', SVC_CREDENTIALS_FILE: credentialsFile, SVC_CACHE_DIR: join(dir, 'cache') };
    // A build of the sources as they are now is used as it is (CI builds in its static stage); the
    // server's build then only checks that its template archive is of these migrations and content.
    if (!PACKAGES.every((pkg) => packageBuildIsFresh(join(root, 'packages', pkg)))) run('pnpm', ['run', '-s', 'build:packages'], root);
    else run('pnpm', ['run', '-s', 'build'], join(root, 'packages/server'));
    const packs = join(dir, 'packs');
    mkdirSync(packs);
    const packing = performance.now();
    for (const pkg of PACKAGES) run('pnpm', ['pack', '--pack-destination', packs], join(root, 'packages', pkg));
    console.log(`cli-install: pnpm pack of the four packages took ${seconds(performance.now() - packing)}`);
    const tarballs = readdirSync(packs).sort();
    expect(tarballs).toEqual(['svc-cli-0.1.0.tgz', 'svc-contract-0.1.0.tgz', 'svc-sdk-0.1.0.tgz', 'svc-server-0.1.0.tgz']);
    // The copy of the migrations the server's prepack made is gone again: the repository reads its own.
    expect(existsSync(join(root, 'packages/server/prisma'))).toBe(false);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'svc-user', version: '1.0.0', private: true }));
    const started = performance.now();
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs.map((t) => `./packs/${t}`)], dir);
    const installed = readdirSync(join(dir, 'node_modules'), { withFileTypes: true }).flatMap((e) =>
      e.name.startsWith('@') ? readdirSync(join(dir, 'node_modules', e.name)) : [e.name],
    );
    console.log(`cli-install: npm install of the four tarballs took ${seconds(performance.now() - started)}, ${installed.length} packages`);
    svc = join(dir, 'node_modules', '.bin', 'svc');
  }, 900_000);

  afterAll(async () => {
    if (serve && serve.child.exitCode === null) {
      serve.child.kill('SIGKILL');
      await serve.exited;
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('installs the service as a package of its own: dist, content, web assets and migrations, ranges instead of workspace links', () => {
    const manifest = (name: string) => JSON.parse(readFileSync(join(dir, 'node_modules', name, 'package.json'), 'utf8'));
    const server = manifest('@svc/server');
    expect(server.private).toBeUndefined();
    expect(server.exports['.']).toEqual({ import: './dist/index.js' });
    const cliManifest = manifest('@svc/cli');
    expect(cliManifest.peerDependencies).toEqual({ '@svc/server': '^0.1.0' });
    expect(cliManifest.peerDependenciesMeta).toEqual({ '@svc/server': { optional: true } });
    for (const name of ['@svc/server', '@svc/cli', '@svc/sdk', '@svc/contract'])
      for (const [dep, range] of Object.entries({ ...manifest(name).dependencies, ...manifest(name).peerDependencies }))
        expect(String(range), `${name} -> ${dep}`).not.toMatch(/^(workspace|link|file):/);
    const installed = join(dir, 'node_modules/@svc/server');
    expect(existsSync(join(installed, 'src'))).toBe(false);
    expect(readdirSync(join(installed, 'prisma/migrations')).sort()).toEqual([...migrations].sort());
    // The Prisma client generated from the schema, compiled with the rest.
    expect(existsSync(join(installed, 'dist/generated/prisma/client.js'))).toBe(true);
    expect(existsSync(join(installed, 'content/frameworks'))).toBe(true);
    expect(existsSync(join(installed, 'web-assets'))).toBe(true);
    // The template of a new embedded database, made by the build (db/embedded-template.ts).
    expect(readdirSync(join(installed, 'embedded-template'))).toEqual([expect.stringMatching(/^embedded-[0-9a-f]{24}\.zip$/)]);
    // The docs bundle is the copy the package carries (scripts/pack-assets.mjs), not
    // @scalar/api-reference, whose dependency tree was half the install.
    expect(existsSync(join(installed, 'vendor/scalar-api-reference/standalone.js'))).toBe(true);
    expect(existsSync(join(dir, 'node_modules/@scalar/api-reference'))).toBe(false);
    // What the CLI calls before it imports the service (db/wasm-modules.ts), from the installed package.
    expect(
      run('node', ['--input-type=module', '-e', "console.log(typeof (await import('@svc/server/prewarm')).prewarm)"], dir).trim(),
    ).toBe('function');
    // npx finds the CLI of the folder.
    expect(run('npx', ['--no', '--', 'svc', '--version'], dir).trim()).toBe('svc 0.1.0');
  });

  it('starts `svc serve` on a new data folder from the template the package ships: migrated, content loaded, first-start credentials', async () => {
    const started = performance.now();
    serve = await startServe(join(dir, 'data'));
    const listening = performance.now() - started;
    const res = await waitForAnswer(serve.url);
    console.log(
      `cli-install: first start of svc serve on an empty data folder: listening after ${seconds(listening)}, answering after ${seconds(performance.now() - started)}`,
    );
    const doc = (await res.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toMatch(/^3\.1/);
    expect(Object.keys(doc.paths).length).toBeGreaterThan(100);

    const err = serve.stderr();
    expect(err).toContain(`database: embedded, ${join(dir, 'data')}`);
    expect(err).toMatch(/^owner API key: +svc_test_\S+$/m);
    expect(err).toMatch(/^operator credential: +svc_op_\S+$/m);
    const creds = JSON.parse(readFileSync(credentialsFile, 'utf8'));
    expect(creds.url).toBe(serve.url);

    // What the service logged: the compiled build, the database from the template the package
    // ships (unpacked into the user's cache), so nothing to migrate or load; no error.
    const logs = serve
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: string; msg: string; runtime?: string; archive?: string });
    expect(logs.find((l) => l.msg === 'embedded database template unpacked from the package')?.archive).toMatch(
      new RegExp(`^${join(dir, 'node_modules/@svc/server/embedded-template/embedded-')}[0-9a-f]{24}\\.zip$`),
    );
    expect(logs.some((l) => l.msg === 'migrations applied')).toBe(false);
    expect(logs.some((l) => l.msg === 'framework dictionary loaded')).toBe(false);
    expect(logs.find((l) => l.msg === 'listening')?.runtime).toBe('compiled');
    expect(logs.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
    expect(existsSync(join(dir, 'data', 'PG_VERSION'))).toBe(true);

    // The API reference (Scalar's bundle, found in the user's node_modules) and the web application,
    // from the installed package's files.
    const docs = await fetch(`${serve.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toMatch(/<title>[^<]*API reference/);
    const bundle = await fetch(`${serve.url}/docs/assets/api-reference.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('x-svc-docs-bundle')).toBe('scalar');
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    const appUrl = /^web application: +(http:\/\/\S+)$/m.exec(err)?.[1];
    const app = await fetch(`${appUrl}/`);
    expect(app.status).toBe(200);
    expect(new URL(app.url).pathname).toBe('/sign-in');
    expect(await app.text()).toMatch(/<title>Sign in/);
  }, 240_000);

  let tenantId: string;
  let tenantKey: string;

  it('tenants and keys (operator): create, list, revoke; a revoked key is refused', () => {
    const created = okJson<{ tenant: { id: string; name: string }; apiKey: { token: string } }>([
      'tenants',
      'create',
      '--name',
      'Installed Co',
      '--tier',
      'growth',
      '--env',
      'test',
    ]);
    expect(created.tenant.id).toMatch(/^ten_/);
    tenantId = created.tenant.id;
    tenantKey = created.apiKey.token;
    expect(ok(['tenants', 'list'])).toMatch(new RegExp(`^${tenantId} +Installed Co +growth`, 'm'));

    const key = okJson<{ id: string; token: string; role: string }>([
      'keys',
      'create',
      '--tenant',
      tenantId,
      '--role',
      'viewer',
      '--name',
      'ci',
    ]);
    expect(key.role).toBe('viewer');
    const listed = okJson<{ id: string }[]>(['keys', 'list', '--tenant', tenantId]);
    expect(listed.map((k) => k.id)).toContain(key.id);
    // The viewer key reads; once revoked, it is refused (exit 2: an API error).
    expect(okJson<unknown[]>(['frameworks', 'list', '--key', key.token]).length).toBeGreaterThan(0);
    expect(ok(['keys', 'revoke', key.id])).toMatch(new RegExp(`^revoked ${key.id} at \\S+`, 'm'));
    const refused = cli(['frameworks', 'list', '--key', key.token]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/401|unauthori[sz]ed|revoked/i);
  });

  it('frameworks, assessments and evidence (tenant): list, activate, create, get', () => {
    const frameworks = okJson<{ id: string }[]>(['frameworks', 'list', '--key', tenantKey]);
    expect(frameworks.map((f) => f.id)).toEqual(expect.arrayContaining(['eu-ai-act', 'gdpr', 'iso-iec-42001']));
    expect(ok(['frameworks', 'activate', 'gdpr', '--key', tenantKey]).trim()).toBe('activated gdpr');

    const asm = okJson<{ id: string; status: string }>([
      'assessments',
      'create',
      '--type',
      'dpia',
      '--system',
      'sys_installed',
      '--jurisdiction',
      'eu/de',
      '--key',
      tenantKey,
    ]);
    expect(asm.id).toMatch(/^asm_/);
    expect(okJson<{ id: string; systemId: string }>(['assessments', 'get', asm.id, '--key', tenantKey]).systemId).toBe('sys_installed');
    expect(ok(['assessments', 'list', '--key', tenantKey])).toContain(asm.id);

    const ev = okJson<{ id: string; kind: string }>([
      'evidence',
      'create',
      '--title',
      'Access review Q3',
      '--kind',
      'report',
      '--controls',
      'GDPR-PRN-01',
      '--uri',
      'https://intranet.example/reviews/q3',
      '--key',
      tenantKey,
    ]);
    expect(ev.id).toMatch(/^evd?_/);
    const noControls = cli(['evidence', 'create', '--title', 'T', '--kind', 'report', '--key', tenantKey]);
    expect(noControls.code).toBe(1);
    expect(noControls.stderr).toContain('missing --controls');
    expect(okJson<{ title: string }>(['evidence', 'get', ev.id, '--key', tenantKey]).title).toBe('Access review Q3');
    expect(okJson<{ id: string }[]>(['evidence', 'list', '--key', tenantKey]).map((e) => e.id)).toContain(ev.id);
  });

  it('audit: events, keys, export, offline verify against the trust file, key rotation', () => {
    const events = okJson<{ action: string }[]>(['audit', 'events', '--limit', '50', '--key', tenantKey]);
    expect(events.map((e) => e.action)).toEqual(expect.arrayContaining(['assessment.created']));
    const trust = join(dir, 'trust.json');
    const keys = okJson<{ data: { keyId: string; fingerprint: string }[] }>(['audit', 'keys', '--out', trust, '--key', tenantKey]);
    expect(keys.data[0]?.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    const trail = join(dir, 'trail.json');
    const exported = okJson<{ events: number }>(['audit', 'export', '--out', trail, '--key', tenantKey]);
    expect(exported.events).toBe(events.length);
    // Offline: no server, no credentials.
    const verified = cli(['audit', 'verify', trail, '--trust', trust], { SVC_CREDENTIALS_FILE: join(dir, 'none.json') });
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(new RegExp(`^valid: ${events.length} events of ${tenantId}`));
    // Without a trust anchor the chain is intact but not anchored: exit 3.
    expect(cli(['audit', 'verify', trail]).code).toBe(3);
    const rotated = okJson<{ keyId: string }>(['audit', 'rotate-key']);
    expect(rotated.keyId).not.toBe(keys.data[0]?.keyId);
  });

  it('operator credential rotation rewrites the credentials file; webhook dead letters; any route with call', () => {
    const before = JSON.parse(readFileSync(credentialsFile, 'utf8')).operatorToken;
    expect(ok(['operator', 'rotate-credential'])).toMatch(/^operator credential \S+ revoked; \S+ written to /);
    const after = JSON.parse(readFileSync(credentialsFile, 'utf8')).operatorToken;
    expect(after).toMatch(/^svc_op_/);
    expect(after).not.toBe(before);
    expect(cli(['tenants', 'list'], { SVC_OPERATOR_TOKEN: before }).code).toBe(2);
    expect(ok(['tenants', 'list'])).toContain(tenantId);

    expect(okJson<unknown[]>(['webhooks', 'dlq', 'list'])).toEqual([]);
    // Nothing was dead-lettered: a replay since the start of the year finds nothing to send again.
    expect(ok(['webhooks', 'dlq', 'replay', '--since', '2026-01-01T00:00:00Z']).trim()).toBe('replayed 0 deliveries');
    const unknown = cli(['webhooks', 'dlq', 'replay', 'whd_01M8KRCCTE7J5X9BNB64WEXV61']);
    expect(unknown.code).toBe(2);

    const tenants = okJson<{ data: { id: string }[] }>(['call', 'GET', '/v1/operator/tenants', '--operator']);
    expect(tenants.data.map((t) => t.id)).toContain(tenantId);
    const created = okJson<{ id: string }>([
      'call',
      'POST',
      '/v1/compliance/assessments',
      '--data',
      JSON.stringify({ type: 'fria', systemId: 'sys_call', jurisdiction: 'eu/fr' }),
      '--key',
      tenantKey,
    ]);
    expect(created.id).toMatch(/^asm_/);
  });

  it('mcp: an MCP client over stdio lists the tools and calls one', () => {
    writeFileSync(
      join(dir, 'mcp-client.mjs'),
      `import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const client = new Client({ name: 'install-check', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: ${JSON.stringify(svc)}, args: ['mcp'], env: process.env, stderr: 'pipe' }));
const { tools } = await client.listTools();
const list = await client.callTool({ name: 'frameworks_list', arguments: { query: { limit: 5 } } });
console.log(JSON.stringify({ tools: tools.length, error: Boolean(list.isError), frameworks: JSON.parse(list.content[0].text).data.map((f) => f.id) }));
await client.close();
`,
    );
    const out = JSON.parse(run('node', ['mcp-client.mjs'], dir)) as { tools: number; error: boolean; frameworks: string[] };
    expect(out.tools).toBeGreaterThan(100);
    expect(out.error).toBe(false);
    expect(out.frameworks).toHaveLength(5);
  });

  it('completion and help', () => {
    expect(ok(['completion', 'bash'])).toContain('complete -o default -F _svc svc');
    expect(ok(['completion', 'zsh'])).toMatch(/^#compdef svc$/m);
    expect(ok(['help'])).toMatch(/^Commands:$/m);
    expect(ok(['help', 'serve'])).toMatch(/^svc serve: run the service in this process$/m);
  });

  it('stops cleanly on SIGTERM and starts again on the same data folder with what was written', async () => {
    const first = serve as Serve;
    expect(await stopServe(first)).toBe(0);
    expect(first.stderr()).toMatch(/^svc stopping$/m);

    const started = performance.now();
    serve = await startServe(join(dir, 'data'));
    console.log(`cli-install: second start on the same data folder: listening after ${seconds(performance.now() - started)}`);
    // Not a first start: no new credentials.
    expect(serve.stderr()).not.toContain('owner API key');
    // The credentials file names the first start's URL; this one listens elsewhere.
    expect(ok(['tenants', 'list', '--url', serve.url])).toContain(tenantId);
    expect(await stopServe(serve)).toBe(0);
  }, 240_000);

  it('starts a second empty data folder from the template the first start unpacked: migrated and content loaded, without its tenants', async () => {
    const templates = readdirSync(join(dir, 'cache')).filter((f) => /^embedded-[0-9a-f]+$/.test(f));
    expect(templates).toHaveLength(1);
    // The cluster's files only: the first folder's secrets key stays in the first folder.
    const template = join(dir, 'cache', templates[0] ?? '');
    expect(existsSync(join(template, 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(dir, 'data', 'secrets.key'))).toBe(true);
    expect(existsSync(join(template, 'secrets.key'))).toBe(false);
    const secondCredentials = join(dir, 'credentials-2.json');
    const started = performance.now();
    serve = await startServe(join(dir, 'data-2'), { SVC_CREDENTIALS_FILE: secondCredentials });
    console.log(
      `cli-install: first start on a second empty data folder, from the template: listening after ${seconds(performance.now() - started)}`,
    );
    // Nothing to migrate or load: both came with the template.
    expect(serve.stdout()).not.toContain('"msg":"migrations applied"');
    expect(serve.stdout()).not.toContain('"msg":"framework dictionary loaded"');
    // A first start of its own: a new sandbox tenant and key, and a secrets key of its own; the
    // first folder's tenants are not in it. (The first-start lines follow the listening line.)
    const s = serve;
    await vi.waitFor(() => expect(s.stderr()).toMatch(/^operator credential: +svc_op_/m), { timeout: 10_000 });
    expect(serve.stderr()).toMatch(/^owner API key: +svc_test_/m);
    expect(readFileSync(join(dir, 'data-2', 'secrets.key'), 'utf8')).not.toBe(readFileSync(join(dir, 'data', 'secrets.key'), 'utf8'));
    const creds = JSON.parse(readFileSync(secondCredentials, 'utf8'));
    expect(creds.tenantId).not.toBe(JSON.parse(readFileSync(credentialsFile, 'utf8')).tenantId);
    const second = { SVC_CREDENTIALS_FILE: secondCredentials };
    expect(JSON.parse(ok(['tenants', 'list', '--json'], second)).map((t: { name: string }) => t.name)).toEqual(['Sandbox']);
    expect(JSON.parse(ok(['frameworks', 'list', '--json'], second)).length).toBeGreaterThanOrEqual(24);
    expect(await stopServe(serve)).toBe(0);
  }, 240_000);
});
