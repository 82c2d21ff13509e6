import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant } from './support/api.ts';
import { startTestServer } from './support/server.ts';

// The packages as a user outside the repository gets them: built, packed with pnpm (which swaps in
// publishConfig.exports and turns workspace: ranges into versions), installed with npm into a plain
// ESM project that has neither the workspace nor tsx.
const root = new URL('..', import.meta.url).pathname;
let dir: string;
const PACKAGES = ['contract', 'sdk-ts', 'cli'];
const { packageBuildIsFresh } = (await import(join(root, 'scripts/package-source-hash.mjs') as string)) as {
  packageBuildIsFresh: (pkgDir: string) => boolean;
};
const EXAMPLES = ['env', 'quick-start', 'pagination', 'idempotency', 'typed-errors', 'webhook-node-http'];

function run(cmd: string, args: string[], cwd: string): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
}

/** What the consumer's own tsc prints for the tsconfig.json in `cwd`: nothing when it type-checks. */
function tscOutput(cwd: string): string {
  try {
    return run('node', [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], cwd);
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  }
}

// Independent of the database: it runs in the embedded pass of CI and is skipped in the PostgreSQL one.
describe.skipIf(Boolean(process.env.DATABASE_URL))('the packed SDK and CLI outside the repository', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-packaging-'));
    // CI builds the packages in its static stage, beside the type check; a build of the sources as
    // they are now is used as it is (scripts/package-source-hash.mjs), anything else is built again.
    if (!PACKAGES.every((pkg) => packageBuildIsFresh(join(root, 'packages', pkg)))) run('pnpm', ['run', '-s', 'build:packages'], root);
    for (const pkg of PACKAGES) run('pnpm', ['pack', '--pack-destination', dir], join(root, 'packages', pkg));
    const tarballs = readdirSync(dir).filter((f) => f.endsWith('.tgz'));
    expect(tarballs.sort()).toEqual(['svc-cli-0.1.0.tgz', 'svc-contract-0.1.0.tgz', 'svc-sdk-0.1.0.tgz']);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'sdk-consumer', version: '1.0.0', private: true, type: 'module' }));
    run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', ...tarballs.map((t) => `./${t}`), 'typescript@5.9.3', '@types/node@20'],
      dir,
    );
  }, 600_000);

  afterAll(() => {
    // The packages' dist/ stays: it is what `svc serve` runs (the lint and the type check skip it).
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('publishes ranges, not pins, and points exports at dist', () => {
    const manifest = JSON.parse(run('node', ['-p', 'JSON.stringify(require("./node_modules/@svc/sdk/package.json"))'], dir));
    expect(manifest.dependencies).toEqual({
      '@noble/hashes': '^1.8.0',
      '@svc/contract': '^0.1.0',
      '@ts-rest/core': '^3.53.0-rc.1',
      zod: '^4.6.7',
    });
    expect(manifest.exports['.']).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
  }, 120_000);

  it('loads no Node built-in from the main entries (browsers and edge runtimes load them)', () => {
    // The module graph from @svc/sdk's entry through @svc/contract's, by their relative imports.
    const seen = new Set<string>();
    const builtins: string[] = [];
    const walk = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const code = readFileSync(file, 'utf8');
      for (const [, spec] of code.matchAll(/(?:import|export)[^'"]*from\s*['"]([^'"]+)['"]/g)) {
        if (!spec) continue;
        if (spec.startsWith('node:')) builtins.push(`${file}: ${spec}`);
        else if (spec.startsWith('.')) walk(join(dirname(file), spec));
        else if (spec === '@svc/contract') walk(join(dir, 'node_modules/@svc/contract/dist/index.js'));
      }
    };
    walk(join(dir, 'node_modules/@svc/sdk/dist/index.js'));
    expect(seen.size).toBeGreaterThan(5);
    expect(builtins).toEqual([]);
  }, 120_000);

  it('runs with plain node: builds a client and verifies a webhook it signs itself', () => {
    writeFileSync(
      join(dir, 'app.mjs'),
      `import { createHmac } from 'node:crypto';
import { createSvcClient, webhooks, WebhookVerificationError } from '@svc/sdk';
const svc = createSvcClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'svc_test_x' });
if (typeof svc.compliance.assessments.create !== 'function') throw new Error('no client');
const secret = 'whsec_packaging';
const payload = JSON.stringify({ id: 'evt_1', type: 'assessment.created' });
const t = Math.floor(Date.now() / 1000);
const v1 = createHmac('sha256', secret).update(t + '.' + payload).digest('hex');
const event = webhooks.verify(payload, 't=' + t + ',v1=' + v1, secret);
let refused = '';
try { webhooks.verify(payload, 't=' + t + ',v1=' + v1, 'whsec_other'); } catch (e) { if (e instanceof WebhookVerificationError) refused = e.reason; }
console.log(JSON.stringify({ id: event.id, refused }));
`,
    );
    expect(JSON.parse(run('node', ['app.mjs'], dir))).toEqual({ id: 'evt_1', refused: 'signature_mismatch' });
  }, 120_000);

  // One tsc run (each pays for loading the SDK's and the contract's declarations) over a strict
  // consumer and the repository's examples/, as a user copies them; the examples' emitted
  // JavaScript runs with plain node in the last test.
  it('type-checks a strict TypeScript consumer and compiles the examples with tsc', () => {
    const ex = join(dir, 'examples');
    mkdirSync(ex, { recursive: true });
    for (const name of EXAMPLES) cpSync(join(root, 'examples', `${name}.ts`), join(ex, `${name}.ts`));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          // Not exactOptionalPropertyTypes: under it the rc of @ts-rest/core no longer sees the
          // contract's nested routers as routers, and every namespace of the client becomes never.
          // The @ts-rest/core rc's own declaration files do not pass a library check.
          skipLibCheck: true,
          rewriteRelativeImportExtensions: true,
          outDir: 'dist',
          types: ['node'],
        },
        include: ['app.ts', 'examples/*.ts'],
      }),
    );
    writeFileSync(
      join(dir, 'app.ts'),
      `import { createSvcClient, ValidationFailedError, type SvcClient } from '@svc/sdk';
const svc: SvcClient = createSvcClient({ baseUrl: 'https://api.svc.example', apiKey: 'svc_test_x' });
export async function main(): Promise<string> {
  try {
    const asm = await svc.compliance.assessments.create({ body: { type: 'fria', systemId: 'sys_1', jurisdiction: 'eu/de' } });
    const id: string = asm.id;
    return id;
  } catch (err) {
    if (err instanceof ValidationFailedError) {
      const status: 422 | number = err.status;
      const fields: string[] = err.details.map((d) => d.field);
      return \`\${status} \${fields.join(',')} \${err.correlationId ?? ''}\`;
    }
    throw err;
  }
}
// @ts-expect-error: the contract types the body, so an unknown assessment type is refused.
void svc.compliance.assessments.create({ body: { type: 'not-a-type', systemId: 'sys_1', jurisdiction: 'eu/de' } });
`,
    );
    expect(tscOutput(dir)).toBe('');
  }, 300_000);

  it('installs the CLI as a JavaScript executable that talks to a running service', async () => {
    const svc = join(dir, 'node_modules', '.bin', 'svc');
    const manifest = JSON.parse(readFileSync(join(dir, 'node_modules/@svc/cli/package.json'), 'utf8'));
    expect(manifest.bin).toEqual({ svc: './dist/bin.js' });
    expect(Object.keys(manifest.dependencies).sort()).toEqual(['@modelcontextprotocol/sdk', '@svc/contract', '@svc/sdk', 'zod']);
    expect(run(svc, ['--version'], dir).trim()).toBe('svc 0.1.0');
    const ts = await startTestServer();
    try {
      const tenant = await createTenant(ts);
      // Asynchronously: the server answering it runs in this process.
      const { stdout } = await promisify(execFile)(svc, ['frameworks', 'list', '--url', ts.url, '--key', tenant.token, '--json'], {
        cwd: dir,
      });
      const out = JSON.parse(stdout);
      expect(out.map((f: { id: string }) => f.id)).toEqual(expect.arrayContaining(['eu-ai-act', 'gdpr', 'iso-iec-42001']));
    } finally {
      await ts.close();
    }
  }, 300_000);

  it('says how to run the service when `svc serve` finds it is not installed beside the CLI', () => {
    const svc = join(dir, 'node_modules', '.bin', 'svc');
    let failure: { status?: number; stderr?: string } = {};
    try {
      run(svc, ['serve'], dir);
    } catch (err) {
      failure = err as typeof failure;
    }
    expect(failure.status).toBe(1);
    expect(failure.stderr).toMatch(/not installed beside this CLI/);
    expect(failure.stderr).toMatch(/--url/);
  });

  it('runs the compiled examples with plain node against a running service', async () => {
    const ex = join(dir, 'examples');
    const ts = await startTestServer();
    try {
      const tenant = await createTenant(ts);
      const env = { ...process.env, NODE_OPTIONS: '', SVC_URL: ts.url, SVC_API_KEY: tenant.token };
      const node = (name: string) => promisify(execFile)('node', [join(dir, 'dist', 'examples', `${name}.js`)], { cwd: ex, env });
      // What each example says it does (test/examples.test.ts runs the webhook receivers).
      const quick = (await node('quick-start')).stdout;
      expect(quick).toMatch(/^created asm_\S+ \(draft\)$/m);
      expect(quick).toMatch(/^framework eu-ai-act$/m);

      const pages = (await node('pagination')).stdout;
      expect(Number(/^total (\d+)$/m.exec(pages)?.[1])).toBeGreaterThan(100);
      expect(pages.match(/^obligation /gm)).toHaveLength(3);

      const retry = (await node('idempotency')).stdout;
      const first = /^first (\S+)$/m.exec(retry)?.[1];
      expect(first).toMatch(/^asm_/);
      expect(retry).toContain(`retry ${first}`);
      expect(retry).toMatch(/^same assessment$/m);

      const errors = (await node('typed-errors')).stdout;
      expect(errors).toMatch(/^status 422 validation_failed$/m);
      expect(errors).toMatch(/^field systemId: missing$/m);
      expect(errors).toMatch(/^correlation \S+$/m);
      expect(errors).not.toContain('correlation undefined');
    } finally {
      await ts.close();
    }
  }, 300_000);
});
