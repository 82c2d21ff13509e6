import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { contract, flattenRoutes, getRail } from '@svc/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, type TenantFixture } from './support/api.ts';
import { startTestServer, type TestServer } from './support/server.ts';

/**
 * `svc mcp`: every tenant and public route of the contract as an MCP tool, driven with the SDK's
 * own client over stdio (the CLI spawned) and streamable HTTP (`svc mcp --http`), against a real
 * server, so tiers, permissions and idempotency are the service's.
 */
// The SDK is a dependency of @svc/cli, not of test/: imported from the CLI's node_modules (with
// `@modelcontextprotocol/sdk` in test/package.json these become the package's own paths).
const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'packages/cli/src/bin.ts');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

const ROUTES = flattenRoutes(contract).filter((r) => r.meta.auth !== 'operator');
/** A list route of a rail sandbox tenants may not use, with no path parameter. */
const GATED = ROUTES.find(
  (r) => r.route.method === 'GET' && r.meta.rail && getRail(r.meta.rail).minTier !== 'sandbox' && !r.route.path.includes(':'),
);

let ts: TestServer;
let owner: TenantFixture;
let sandbox: TenantFixture;
const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-'));
// No credentials file: the URL and keys come from the flags, the environment or each HTTP client.
const baseEnv = (): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('SVC_')) env[k] = v;
  env.SVC_CREDENTIALS_FILE = join(dir, 'none.json');
  return env;
};

beforeAll(async () => {
  ts = await startTestServer();
  owner = await createTenant(ts);
  sandbox = await createTenant(ts, { tier: 'sandbox' });
});
afterAll(() => ts?.close());

const parsed = (r: CallToolResult) => JSON.parse((r.content[0] as { text: string }).text);

describe('svc mcp over stdio', () => {
  let client: Client;
  beforeAll(async () => {
    client = new Client({ name: 'svc-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: TSX,
        args: [BIN, 'mcp'],
        env: { ...baseEnv(), SVC_URL: ts.url, SVC_API_KEY: owner.token },
        stderr: 'pipe',
      }),
    );
  }, 120_000);
  afterAll(() => client?.close());

  it('lists one tool per tenant and public route, named after the router path', async () => {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(ROUTES.length);
    const names = tools.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    const create = tools.find((t) => t.name === 'compliance_assessments_create');
    expect(create?.description).toContain('POST /v1/compliance/assessments');
    expect(create?.inputSchema.required).toContain('body');
    expect(Object.keys(create?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['body', 'idempotencyKey']));
    const get = tools.find((t) => t.name === 'compliance_assessments_get');
    expect(get?.inputSchema.required).toContain('params');
    expect(tools.some((t) => t.name.startsWith('operator_'))).toBe(false);
  });

  it('calls a read (frameworks list) and a write (assessment create, idempotent with a key)', async () => {
    const list = (await client.callTool({ name: 'frameworks_list', arguments: { query: { limit: 5 } } })) as CallToolResult;
    expect(list.isError).toBeFalsy();
    expect(parsed(list).data.length).toBeGreaterThan(0);
    expect((list.structuredContent as { data: unknown[] }).data.length).toBe(parsed(list).data.length);

    const args = { body: { type: 'dpia', systemId: 'sys_mcp_stdio', jurisdiction: 'eu/fr' }, idempotencyKey: `mcp-${Date.now()}` };
    const first = (await client.callTool({ name: 'compliance_assessments_create', arguments: args })) as CallToolResult;
    expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
    expect(parsed(first).id).toMatch(/^asm_/);
    // The same Idempotency-Key: the first answer again, no second assessment.
    const again = (await client.callTool({ name: 'compliance_assessments_create', arguments: args })) as CallToolResult;
    expect(parsed(again).id).toBe(parsed(first).id);
    const got = (await client.callTool({
      name: 'compliance_assessments_get',
      arguments: { params: { id: parsed(first).id } },
    })) as CallToolResult;
    expect(parsed(got).systemId).toBe('sys_mcp_stdio');
  });

  it('answers an API error as an isError result with the envelope', async () => {
    const res = (await client.callTool({ name: 'compliance_assessments_create', arguments: { body: { type: 'fria' } } })) as CallToolResult;
    expect(res.isError).toBe(true);
    expect(parsed(res).error).toBe('validation_failed');
    expect(parsed(res).documentation_url).toContain('/docs/errors#validation_failed');
  });
});

describe('svc mcp --http', () => {
  let child: ChildProcess;
  let url: string;
  beforeAll(async () => {
    child = spawn(TSX, [BIN, 'mcp', '--http', '--port', '0', '--url', ts.url], { env: baseEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr?.on('data', (d) => {
      err += String(d);
    });
    const deadline = Date.now() + 90_000;
    while (!/svc mcp listening on (\S+)/.test(err)) {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`svc mcp --http did not start: ${err}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    url = (/svc mcp listening on (\S+)/.exec(err) as RegExpExecArray)[1] as string;
  }, 120_000);
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'svc-test-http', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
    );
    return client;
  }

  it('refuses a client without a bearer key', async () => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
  });

  it("lists the tools and calls them with each client's own key", async () => {
    const client = await connect(owner.token);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(ROUTES.length);
      expect(tools.map((t) => t.name)).toContain('compliance_assessments_create');
      const list = (await client.callTool({ name: 'frameworks_list', arguments: {} })) as CallToolResult;
      expect(list.isError).toBeFalsy();
      expect(parsed(list).data.length).toBeGreaterThan(0);
      const created = (await client.callTool({
        name: 'compliance_assessments_create',
        arguments: { body: { type: 'fria', systemId: 'sys_mcp', jurisdiction: 'eu/de' } },
      })) as CallToolResult;
      expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
      expect(parsed(created).id).toMatch(/^asm_/);
      // The assessment belongs to the key's tenant.
      const mine = await owner.call('GET', `/v1/compliance/assessments/${parsed(created).id}`);
      expect(mine.status).toBe(200);
    } finally {
      await client.close();
    }
  });

  it('a sandbox key gets 403 forbidden on a tier-gated route', async () => {
    expect(GATED).toBeDefined();
    const client = await connect(sandbox.token);
    try {
      const name = (GATED?.name ?? '').replace(/[^a-zA-Z0-9_-]+/g, '_');
      const res = (await client.callTool({ name, arguments: {} })) as CallToolResult;
      expect(res.isError).toBe(true);
      expect(parsed(res).error).toBe('forbidden');
      expect((res.structuredContent as { error: string }).error).toBe('forbidden');
    } finally {
      await client.close();
    }
  });
});
