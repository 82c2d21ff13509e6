import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerModule } from '../packages/cli/src/server-module.ts';
import { svcInProcess } from './support/cli.ts';
import { seedEmbeddedDataDir } from './support/server.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..');
// The published bin, run by plain node: no tsx on the command line.
const BIN = join(ROOT, 'packages/cli/bin/svc.mjs');

const dir = mkdtempSync(join(tmpdir(), 'svc-cli-ux-'));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  SVC_CREDENTIALS_FILE: join(dir, 'credentials.json'),
  SVC_DATA_DIR: join(dir, 'data'),
  PORT: '0',
  SVC_LOG_LEVEL: 'warn',
};
delete env.DATABASE_URL;
delete env.REDIS_URL;
delete env.SVC_URL;
delete env.SVC_API_KEY;
delete env.SVC_OPERATOR_TOKEN;

/** A CLI command in this process (test/support/cli.ts): what the bin runs, without a Node start per command. */
function svc(args: string[]) {
  return svcInProcess(args, env);
}

/** The published bin as a child process under plain node: its output and its process exit code. */
async function svcBin(args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A port nothing listens on: bound once by the OS, then released. */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

// The CLI always runs here on its own embedded database: the PostgreSQL pass of CI skips these.
describe.skipIf(Boolean(process.env.DATABASE_URL))('svc without a server', () => {
  it("the CLI's view of the service package (it loads it only for `svc serve`) matches the package", async () => {
    // A type error here means server-module.ts no longer describes what the CLI calls.
    const server: ServerModule = await import('@svc/server');
    expect([typeof server.startServer, typeof server.loadConfig, typeof server.startWebhookProcess]).toEqual([
      'function',
      'function',
      'function',
    ]);
  });

  it('the JS bin runs under plain node and prints the version', async () => {
    const res = await svcBin(['--version']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^svc \d+\.\d+\.\d+/);
    expect((await svc(['-v'])).stdout).toBe(res.stdout);
  });

  it('svc keys --help and svc help keys show the keys usage, not the global help', async () => {
    for (const args of [
      ['keys', '--help'],
      ['help', 'keys'],
    ]) {
      const res = await svc(args);
      expect(res.code).toBe(0);
      expect(res.stdout).toMatch(/^svc keys: /);
      expect(res.stdout).toContain('svc keys create --tenant ID --role ROLE');
      expect(res.stdout).toContain('Example:');
      expect(res.stdout).not.toContain('svc tenants create');
    }
  });

  it('the global help documents the exit codes', async () => {
    const res = await svc(['--help']);
    expect(res.stdout).toMatch(/Exit codes:[\s\S]*1 {2}usage error[\s\S]*2 {2}API error[\s\S]*3 {2}server unreachable/);
  });

  it('an unknown command is a usage error on stderr', async () => {
    const res = await svc(['bogus']);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/unknown command bogus/);
  });

  it('a stopped server names the URL, hints at svc serve and exits 3', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const res = await svcBin(['frameworks', 'list', '--url', url, '--key', 'svc_test_x']);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain(
      `cannot reach the server at ${url} (connection refused): is it running? start it with \`svc serve\`, or pass --url`,
    );
  });

  it('svc completion bash prints a script naming the commands and subcommands', async () => {
    const res = await svc(['completion', 'bash']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('complete -o default -F _svc svc');
    for (const word of ['frameworks', 'assessments', 'evidence', 'webhooks', 'activate', 'rotate-key']) expect(res.stdout).toContain(word);
    expect((await svc(['completion', 'zsh'])).stdout).toContain('compdef _svc svc');
  });
});

// The commands run in process against the spawned server; the timeouts allow for a loaded machine.
describe.skipIf(Boolean(process.env.DATABASE_URL))('svc against a running server', () => {
  let child: ChildProcess;
  let out = '';
  beforeAll(async () => {
    // The first start itself is test/cli.test.ts's subject: this one starts from the suite's
    // migrated, content-loaded snapshot (it still bootstraps, and writes the credentials file).
    seedEmbeddedDataDir(env.SVC_DATA_DIR as string);
    // At info level for its `listening` line, which says what it runs.
    child = spawn(process.execPath, [BIN, 'serve'], { env: { ...env, SVC_LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr?.on('data', (d) => {
      err += String(d);
    });
    child.stdout?.on('data', (d) => {
      out += String(d);
    });
    const deadline = Date.now() + 60_000;
    while (!/credentials file:/.test(err)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start: ${err}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 90_000);
  afterAll(async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  });

  it('svc serve runs the compiled build bundled into one module, not the TypeScript sources', () => {
    const listening = out.split('\n').find((line) => line.includes('"msg":"listening"'));
    expect(listening).toBeDefined();
    expect(JSON.parse(listening as string)).toMatchObject({ runtime: 'bundle', database: 'pglite' });
  });

  it('an operator route called with the tenant key says to add --operator', async () => {
    const res = await svc(['call', 'GET', '/v1/operator/tenants']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('403');
    expect(res.stderr).toContain('this is an operator route: add --operator');
    expect((await svc(['call', 'GET', '/v1/operator/tenants', '--operator'])).code).toBe(0);
  }, 180_000);

  it('a 422 lists each field and the allowed values of an enum', async () => {
    const res = await svc(['assessments', 'create', '--type', 'nope', '--system', 'sys_1', '--jurisdiction', 'eu']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/422 validation_failed/);
    expect(res.stderr).toMatch(/^ {2}type: \w+ \(allowed: fria, dpia, .*\)$/m);
  });

  it('frameworks activate and assessments create/list/get work', async () => {
    const activated = await svc(['frameworks', 'activate', 'gdpr']);
    expect(activated.stderr).toBe('');
    expect(activated.code).toBe(0);
    expect(activated.stdout).toMatch(/activated gdpr/);

    const list = await svc(['frameworks', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\b/);

    const created = await svc(['assessments', 'create', '--type', 'dpia', '--system', 'sys_crm', '--jurisdiction', 'eu/de', '--json']);
    expect(created.code).toBe(0);
    const asm = JSON.parse(created.stdout) as { id: string; type: string };
    expect(asm.type).toBe('dpia');

    const table = await svc(['assessments', 'list']);
    expect(table.stdout).toMatch(/^ID +TYPE/);
    expect(table.stdout).toContain(asm.id);
    expect(JSON.parse((await svc(['assessments', 'get', asm.id, '--json'])).stdout).id).toBe(asm.id);
  }, 180_000);

  it('frameworks versions, diff, obligations as of a day and repin with a dry run first', async () => {
    const versions = await svc(['frameworks', 'versions', 'eu-ai-act']);
    expect(versions.code, versions.stderr).toBe(0);
    expect(versions.stdout).toMatch(/^DICTIONARY ?VERSION\b/);
    expect(versions.stdout).toContain('eu-ai-act@1.0.0');
    const diff = await svc(['frameworks', 'diff', 'eu-ai-act', '1.0.0', '--json']);
    expect(JSON.parse(diff.stdout).counts.amended).toBeGreaterThan(10);
    const asOf = JSON.parse((await svc(['frameworks', 'obligations', 'eu-ai-act', '--as-of', '2026-05-01', '--json'])).stdout);
    expect(asOf[0].dictionaryVersion).toBe('eu-ai-act@1.0.0');
    expect((await svc(['frameworks', 'activate', 'colorado-ai-act'])).code).toBe(0);
    const dry = await svc(['frameworks', 'repin', 'colorado-ai-act', '1.0.0', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^would move colorado-ai-act@2\.0\.0 -> colorado-ai-act@1\.0\.0: /);
    const moved = await svc(['frameworks', 'repin', 'colorado-ai-act', '1.0.0']);
    expect(moved.stdout).toMatch(/^moved /);
    expect((await svc(['frameworks', 'repin', 'colorado-ai-act'])).code).toBe(1); // a usage error: no VERSION
  }, 180_000);

  it('audit events shows the trail; audit export reports progress only when asked', async () => {
    const events = await svc(['audit', 'events', '--limit', '5', '--json']);
    expect(events.code).toBe(0);
    expect(JSON.parse(events.stdout).length).toBeGreaterThan(0);

    const file = join(dir, 'trail.json');
    const quiet = await svc(['audit', 'export', '--out', file]);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    const loud = await svc(['audit', 'export', '--out', file, '--progress']);
    expect(loud.stderr).toMatch(/^exported \d+ of \d+ events$/m);
    const json = await svc(['audit', 'export', '--out', file, '--progress', '--json']);
    expect(json.stderr).toBe('');
  }, 180_000);
});
