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

/** A type check by the consumer's own tsc: its diagnostics (none when it type-checks), its time and memory. */
interface TypeCheck {
  errors: string[];
  seconds: number;
  memoryMB: number;
}

/** Runs the consumer's tsc on `tsconfig` in the consumer's folder, with its own figures (`--extendedDiagnostics`). */
function typeCheck(tsconfig: string): TypeCheck {
  let out: string;
  try {
    out = run('node', [join(dir, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', tsconfig, '--extendedDiagnostics'], dir);
  } catch (err) {
    out = String((err as { stdout?: string }).stdout ?? err);
    // A failure that printed no diagnostic (tsc missing, killed) must not pass for a clean check.
    if (!/error TS\d+/.test(out)) return { errors: [out], seconds: Number.NaN, memoryMB: Number.NaN };
  }
  const figure = (name: string) => Number(new RegExp(`^${name}:\\s+([\\d.]+)`, 'm').exec(out)?.[1]);
  return {
    errors: out.split('\n').filter((line) => /error TS\d+/.test(line)),
    seconds: figure('Total time'),
    memoryMB: Math.round(figure('Memory used') / 1024),
  };
}

/** The consumer's strict settings; exactOptionalPropertyTypes included. */
function writeTsconfig(name: string, options: { skipLibCheck: boolean; emit: boolean }, include: string[]): string {
  writeFileSync(
    join(dir, name),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        skipLibCheck: options.skipLibCheck,
        rewriteRelativeImportExtensions: true,
        ...(options.emit ? { rootDir: '.', outDir: 'dist' } : { noEmit: true }),
        types: ['node'],
      },
      include,
    }),
  );
  return name;
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
        else if (spec === '@svc/contract/wire') walk(join(dir, 'node_modules/@svc/contract/dist/wire.js'));
      }
    };
    walk(join(dir, 'node_modules/@svc/sdk/dist/index.js'));
    expect(seen.size).toBeGreaterThan(5);
    expect(builtins).toEqual([]);
    // The client is built from the generated route table: the main entry imports the contract's
    // wire constants only, and loads the contract's schemas on demand (validateResponses).
    expect([...seen].some((f) => f.endsWith('/@svc/contract/dist/wire.js'))).toBe(true);
    expect([...seen].some((f) => f.endsWith('/@svc/contract/dist/index.js'))).toBe(false);
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

  // The SDK's declarations are named types per operation (generated from the OpenAPI document):
  // the user's compiler does not infer the contract's ts-rest router and zod schemas. Targets for
  // the file below: 3 s with skipLibCheck, 10 s without; printed, not asserted (shared machines are
  // noisy), beside the memory tsc reports.
  const APP = `import { createSvcClient, ValidationFailedError, type SvcClient } from '@svc/sdk';
// Options that may be missing are accepted as such under exactOptionalPropertyTypes.
const svc: SvcClient = createSvcClient({ baseUrl: 'https://api.svc.example', apiKey: 'svc_test_x', tenantId: process.env.SVC_TENANT_ID });
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
void svc.compliance.obligations.list({ query: process.env.LIMIT ? { limit: Number(process.env.LIMIT) } : undefined });
// @ts-expect-error: the contract types the body, so an unknown assessment type is refused.
void svc.compliance.assessments.create({ body: { type: 'not-a-type', systemId: 'sys_1', jurisdiction: 'eu/de' } });
`;
  const TARGET_SECONDS = { skipLibCheck: 3, full: 10 };

  it('type-checks a strict consumer quickly, with and without skipLibCheck, and refuses a wrong body', () => {
    writeFileSync(join(dir, 'app.ts'), APP);
    const fast = typeCheck(writeTsconfig('tsconfig.app-skip.json', { skipLibCheck: true, emit: false }, ['app.ts']));
    const full = typeCheck(writeTsconfig('tsconfig.app-full.json', { skipLibCheck: false, emit: false }, ['app.ts']));
    // What the same settings cost without the SDK (TypeScript's lib and @types/node): the SDK's share is the difference.
    writeFileSync(join(dir, 'bare.ts'), 'export const answer: number = 42;\n');
    const bare = typeCheck(writeTsconfig('tsconfig.bare.json', { skipLibCheck: false, emit: false }, ['bare.ts']));
    const line = (name: string, c: TypeCheck, target: number) =>
      `${name}: ${c.seconds.toFixed(2)} s (target ${target} s${c.seconds <= target ? '' : ', MISSED'}), ${c.memoryMB} MB`;
    console.log(
      [
        'consumer type check of app.ts (strict, exactOptionalPropertyTypes):',
        `  ${line('skipLibCheck: true ', fast, TARGET_SECONDS.skipLibCheck)}`,
        `  ${line('skipLibCheck: false', full, TARGET_SECONDS.full)}`,
        `  a file that imports nothing, skipLibCheck: false: ${bare.seconds.toFixed(2)} s, ${bare.memoryMB} MB`,
      ].join('\n'),
    );
    expect(fast.errors).toEqual([]);
    expect(full.errors).toEqual([]);
    expect(bare.errors).toEqual([]);
    expect([fast.seconds, full.seconds, bare.seconds].every((t) => t > 0)).toBe(true);

    // Without the @ts-expect-error, the wrong body is an error that names the assessment types.
    writeFileSync(join(dir, 'wrong.ts'), APP.replace(/^\/\/ @ts-expect-error.*\n/m, ''));
    const wrong = typeCheck(writeTsconfig('tsconfig.wrong.json', { skipLibCheck: true, emit: false }, ['wrong.ts']));
    expect(wrong.errors).toHaveLength(1);
    expect(wrong.errors[0]).toMatch(/wrong\.ts\(\d+,\d+\): error TS2322: Type '"not-a-type"' is not assignable to type '[^']*"fria"[^']*'/);
  }, 300_000);

  it("loads neither the contract nor ts-rest through the entries' declarations (nor zod through the main one)", () => {
    // The declaration files tsc reads for an entry, by their relative imports, and the packages they name.
    const packagesNamed = (entry: string) => {
      const seen = new Set<string>();
      const bare = new Set<string>();
      const walk = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        // Statements only: the documentation's examples import packages too.
        const code = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
        for (const [, spec] of code.matchAll(/^(?:import|export)[^'"]*from\s*['"]([^'"]+)['"]/gm)) {
          if (!spec) continue;
          if (spec.startsWith('.')) walk(join(dirname(file), spec.replace(/\.js$/, '.d.ts')));
          else bare.add(spec);
        }
      };
      walk(join(dir, 'node_modules/@svc/sdk/dist', entry));
      expect(seen.size).toBeGreaterThan(2);
      return [...bare].sort();
    };
    expect(packagesNamed('index.d.ts')).toEqual([]);
    // The QA entry names msw (its peer dependency) and zod (`exampleOf` takes a schema).
    expect(packagesNamed('msw.d.ts')).toEqual(['msw', 'zod']);
  }, 120_000);

  // The repository's examples/, as a user copies them, under the same strict settings (no
  // skipLibCheck); their emitted JavaScript runs with plain node in the last test.
  it('compiles the examples with tsc under exactOptionalPropertyTypes', () => {
    const ex = join(dir, 'examples');
    mkdirSync(ex, { recursive: true });
    for (const name of EXAMPLES) cpSync(join(root, 'examples', `${name}.ts`), join(ex, `${name}.ts`));
    const examples = typeCheck(writeTsconfig('tsconfig.json', { skipLibCheck: false, emit: true }, ['examples/*.ts']));
    console.log(`consumer type check and emit of examples/ (no skipLibCheck): ${examples.seconds.toFixed(2)} s, ${examples.memoryMB} MB`);
    expect(examples.errors).toEqual([]);
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
