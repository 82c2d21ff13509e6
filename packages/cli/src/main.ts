import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { keyFingerprint } from '@svc/contract/audit';
import { createSvcClient, type SvcClient } from '@svc/sdk';
import { ASSESSMENT_WORK, assessmentWork } from './assessments.ts';
import { EXIT_UNANCHORED, readTrustFile, type TrustAnchor, type VerifyReport } from './audit.ts';
import { verifyExportFile } from './audit-file.ts';
import { type Credentials, credentialsFile, readCredentials } from './credentials.ts';
import { type Attempt, EXIT_USAGE, report } from './failure.ts';
import { COMMANDS, commandHelp, completionScript, globalHelp, UsageError } from './help.ts';
import { autoTable, print as printOut, progressWanted, table } from './output.ts';
import { cliVersion } from './quick.ts';
import { serve } from './serve.ts';
import { webhooksCommand, withRole } from './webhooks.ts';

interface Globals {
  json: boolean;
  url: string | undefined;
  key: string | undefined;
  credentials: string | undefined;
}

/** What the running command is doing, so a failure can say what to fix. */
const attempt: Attempt = {};

function context(g: Globals) {
  const file = g.credentials ?? credentialsFile();
  let creds: Credentials | undefined;
  try {
    creds = readCredentials(file);
  } catch {
    throw new UsageError(`cannot read the credentials file ${file}`);
  }
  const url = g.url ?? process.env.SVC_URL ?? creds?.url;
  if (!url) throw new UsageError(`no server URL: start one with \`svc serve\`, or pass --url (looked in ${file})`);
  const pick = (flag: string | undefined, envName: string, fromFile: string | undefined) =>
    flag
      ? { token: flag, source: '--key' }
      : process.env[envName]
        ? { token: process.env[envName] as string, source: `$${envName}` }
        : fromFile
          ? { token: fromFile, source: `the credentials file ${file}` }
          : undefined;
  return {
    url,
    apiKey: pick(g.key, 'SVC_API_KEY', creds?.apiKey),
    operatorToken: pick(g.key, 'SVC_OPERATOR_TOKEN', creds?.operatorToken),
  };
}

function clientFor(g: Globals, as: 'operator' | 'tenant'): SvcClient {
  const c = context(g);
  const cred = as === 'operator' ? c.operatorToken : c.apiKey;
  if (!cred)
    throw new UsageError(`no ${as === 'operator' ? 'operator credential' : 'API key'}: pass --key or set it in the credentials file`);
  attempt.url = c.url;
  attempt.operator = as === 'operator';
  attempt.credential = { token: cred.token, source: cred.source, operator: as === 'operator' };
  return createSvcClient({ baseUrl: c.url, apiKey: cred.token, maxRetries: 2 });
}

/** Records the route about to be called, for the hints of a failure. */
function calling(method: string, path: string): void {
  attempt.method = method;
  attempt.path = path;
}

function print(g: Globals, value: unknown, human: () => string): void {
  printOut(g.json, value, human);
}

function need(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new UsageError(`missing ${flag}`);
  return value;
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

/** What an intact result proves and does not, one line each. */
function scopeLines(r: VerifyReport): string {
  const lines = [...(r.proves ?? []).map((p) => `  proves: ${p}`), ...(r.doesNotProve ?? []).map((p) => `  does not prove: ${p}`)];
  return lines.length ? `\n${lines.join('\n')}` : '';
}

function describeVerify(r: VerifyReport): string {
  const span = `${r.checked} events of ${r.tenantId}, seq ${r.range.fromSeq}..${r.range.toSeq}`;
  if (r.status === 'valid') {
    return `valid: ${span}, signed by trusted keys ${r.keys.map((k) => `${k.keyId} (${k.fingerprint}, ${k.trustedBy.replace('_', ' ')})`).join(', ')}${scopeLines(r)}`;
  }
  if (r.status === 'unanchored') return `${r.warning}\nchain intact: ${span}${scopeLines(r)}`;
  const b = r.firstBroken;
  return `BROKEN at seq ${b?.seq}${b?.id ? ` (${b.id})` : ''}: ${b?.reason}: ${b?.message}`;
}

export async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      url: { type: 'string' },
      key: { type: 'string' },
      credentials: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'data-dir': { type: 'string' },
      name: { type: 'string' },
      tier: { type: 'string' },
      env: { type: 'string' },
      'rate-limit': { type: 'string' },
      quota: { type: 'string' },
      tenant: { type: 'string' },
      role: { type: 'string' },
      scopes: { type: 'string' },
      expires: { type: 'string' },
      person: { type: 'string' },
      data: { type: 'string', short: 'd' },
      header: { type: 'string', short: 'H', multiple: true },
      operator: { type: 'boolean', default: false },
      out: { type: 'string', short: 'o' },
      'from-seq': { type: 'string' },
      chunk: { type: 'string' },
      'to-seq': { type: 'string' },
      since: { type: 'string' },
      trust: { type: 'string' },
      'key-fingerprint': { type: 'string', multiple: true },
      version: { type: 'boolean', short: 'v', default: false },
      'dry-run': { type: 'boolean', default: false },
      'as-of': { type: 'string' },
      progress: { type: 'boolean', default: false },
      limit: { type: 'string' },
      type: { type: 'string' },
      system: { type: 'string' },
      jurisdiction: { type: 'string' },
      title: { type: 'string' },
      kind: { type: 'string' },
      uri: { type: 'string' },
      description: { type: 'string' },
      controls: { type: 'string' },
      'api-key': { type: 'string' },
      http: { type: 'boolean', default: false },
      stage: { type: 'string' },
      unanswered: { type: 'boolean', default: false },
      notes: { type: 'string' },
      evidence: { type: 'string' },
      comment: { type: 'string', multiple: true },
    },
  });
  const g: Globals = { json: values.json ?? false, url: values.url, key: values.key, credentials: values.credentials };
  const [command, sub, ...rest] = positionals;
  if (values.version) {
    process.stdout.write(`svc ${cliVersion()}\n`);
    return 0;
  }
  if (command === 'help' || (values.help && command)) {
    const name = command === 'help' ? sub : command;
    if (!name) {
      process.stdout.write(globalHelp());
      return 0;
    }
    const text = commandHelp(name);
    if (!text) throw new UsageError(`unknown command ${name}`);
    process.stdout.write(text);
    return 0;
  }
  if (values.help || !command) {
    (command || values.help ? process.stdout : process.stderr).write(globalHelp());
    return command || values.help ? 0 : EXIT_USAGE;
  }
  // Progress is for someone watching: never mixed into --json, and off when stderr is captured.
  const progress = progressWanted(values.progress ?? false, g.json);
  switch (command) {
    case 'serve':
      return await serve(
        await withRole(
          {
            ...(values.port ? { port: Number(values.port) } : {}),
            ...(values.host ? { host: values.host } : {}),
            ...(values['data-dir'] ? { dataDir: values['data-dir'] } : {}),
            ...(values.credentials ? { credentialsFile: values.credentials } : {}),
          },
          values.role,
        ),
      );
    case 'webhooks':
      return await webhooksCommand(clientFor(g, 'operator'), [sub ?? '', ...rest], {
        json: g.json,
        tenant: values.tenant,
        since: values.since,
        progress,
      });
    case 'completion':
      process.stdout.write(completionScript(sub ?? ''));
      return 0;
    case 'mcp': {
      // Loaded only here: the MCP SDK takes longer to import than the rest of the CLI.
      const { serveHttp, serveStdio } = await import('./mcp.ts');
      // --api-key is the MCP clients' usual spelling of --key.
      const c = context({ ...g, key: g.key ?? values['api-key'] });
      if (values.http) {
        const port = values.port === undefined ? 8765 : Number(values.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be a port number');
        const http = await serveHttp({
          url: c.url,
          port,
          host: values.host ?? '127.0.0.1',
          onListening: (address) => process.stderr.write(`svc mcp listening on ${address} (service ${c.url})\n`),
        });
        await new Promise<void>((resolve) => {
          process.once('SIGINT', resolve);
          process.once('SIGTERM', resolve);
        });
        await http.close();
        return 0;
      }
      return await serveStdio({ url: c.url, apiKey: c.apiKey?.token });
    }
    case 'frameworks': {
      const svc = clientFor(g, 'tenant');
      if (sub === 'list') {
        calling('GET', '/v1/frameworks');
        const rows = await collect(svc.paginate(svc.frameworks.list, { query: { limit: 100 } }));
        print(g, rows, () => autoTable(rows as unknown as Record<string, unknown>[], ['id', 'name', 'version', 'jurisdiction', 'active']));
        return 0;
      }
      if (sub === 'activate') {
        const id = need(rest[0], 'framework ID');
        calling('POST', `/v1/frameworks/${id}/activate`);
        const res = await svc.frameworks.activate({ params: { id } });
        print(g, res, () => `activated ${id}`);
        return 0;
      }
      if (sub === 'versions') {
        const id = need(rest[0], 'framework ID');
        calling('GET', `/v1/frameworks/${id}/versions`);
        const rows = await collect(svc.paginate(svc.frameworks.versions, { params: { id }, query: { limit: 100 } }));
        print(g, rows, () =>
          autoTable(
            rows.map((v) => ({
              ...v,
              amendingAct: v.amendingAct?.reference ?? v.amendingAct?.title ?? '(first version or a correction)',
              changes: v.changes.length,
            })),
            ['dictionaryVersion', 'publishedAt', 'lawFrom', 'amendingAct', 'changes'],
          ),
        );
        return 0;
      }
      if (sub === 'diff') {
        const id = need(rest[0], 'framework ID');
        const from = need(rest[1], 'FROM version');
        calling('GET', `/v1/frameworks/${id}/diff`);
        const res = await svc.frameworks.diff({ params: { id }, query: { from, ...(rest[2] ? { to: rest[2] } : {}) } });
        print(g, res, () =>
          autoTable(
            res.entries.map((e) => ({ ...e, fields: e.fields.map((f) => f.field).join(', '), source: e.sources.at(-1)?.source ?? '' })),
            ['change', 'kind', 'id', 'title', 'fields', 'source'],
          ),
        );
        return 0;
      }
      if (sub === 'obligations') {
        const id = need(rest[0], 'framework ID');
        calling('GET', `/v1/frameworks/${id}/obligations`);
        const query = { limit: 100, ...(values['as-of'] ? { asOf: values['as-of'] } : {}) };
        const rows = await collect(svc.paginate(svc.frameworks.obligations, { params: { id }, query }));
        print(g, rows, () =>
          autoTable(rows as unknown as Record<string, unknown>[], [
            'id',
            'clauseRef',
            'actor',
            'applicableFrom',
            'applicableUntil',
            'status',
          ]),
        );
        return 0;
      }
      if (sub === 'repin') {
        const id = need(rest[0], 'framework ID');
        const version = need(rest[1], 'VERSION');
        const dryRun = values['dry-run'] === true;
        calling('POST', `/v1/frameworks/${id}/repin`);
        const res = await svc.frameworks.repin({ params: { id }, body: { version, dryRun } });
        const c = res.diff.counts;
        print(
          g,
          res,
          () =>
            `${dryRun ? 'would move' : 'moved'} ${res.from} -> ${res.to}: ${c.added} added, ${c.amended} amended, ${c.repealed} repealed, ${c.removed} removed; obligations ${res.obligations.added} added, ${res.obligations.updated} updated, ${res.obligations.withdrawn} withdrawn; touches ${res.impact.obligations.length} obligations, ${res.impact.assessments.length} open assessments`,
        );
        return 0;
      }
      throw new UsageError(
        'usage: svc frameworks list|activate ID|versions ID|diff ID FROM [TO]|obligations ID [--as-of DAY]|repin ID VERSION [--dry-run]',
      );
    }
    case 'assessments': {
      const svc = clientFor(g, 'tenant');
      const columns = ['id', 'type', 'systemId', 'jurisdiction', 'status', 'completion', 'createdAt'];
      if (sub === 'list') {
        calling('GET', '/v1/compliance/assessments');
        const rows = await collect(svc.paginate(svc.compliance.assessments.list, { query: { limit: 100 } }));
        print(g, rows, () => autoTable(rows as unknown as Record<string, unknown>[], columns));
        return 0;
      }
      if (sub === 'create') {
        calling('POST', '/v1/compliance/assessments');
        const body = {
          type: need(values.type, '--type'),
          systemId: need(values.system, '--system'),
          jurisdiction: need(values.jurisdiction, '--jurisdiction'),
          ...(values.title ? { title: values.title } : {}),
        };
        // The server validates the type and names the allowed values; the CLI does not duplicate the list.
        const created = await svc.compliance.assessments.create({
          body: body as Parameters<typeof svc.compliance.assessments.create>[0]['body'],
        });
        print(g, created, () => autoTable([created as unknown as Record<string, unknown>], columns));
        return 0;
      }
      if (sub === 'get') {
        const id = need(rest[0], 'assessment ID');
        calling('GET', `/v1/compliance/assessments/${id}`);
        const found = await svc.compliance.assessments.get({ params: { id } });
        print(g, found, () => JSON.stringify(found, null, 2));
        return 0;
      }
      if ((ASSESSMENT_WORK as readonly string[]).includes(sub ?? '')) {
        return await assessmentWork(svc, sub as string, rest, {
          json: g.json,
          stage: values.stage,
          unanswered: values.unanswered,
          notes: values.notes,
          evidence: values.evidence,
          comment: values.comment,
          calling,
        });
      }
      throw new UsageError(`usage: svc assessments list|create|get|${ASSESSMENT_WORK.join('|')}`);
    }
    case 'evidence': {
      const svc = clientFor(g, 'tenant');
      const columns = ['id', 'title', 'kind', 'systemId', 'uri', 'createdAt'];
      if (sub === 'list') {
        calling('GET', '/v1/compliance/evidence');
        const rows = await collect(svc.paginate(svc.compliance.evidence.list, { query: { limit: 100 } }));
        print(g, rows, () => autoTable(rows as unknown as Record<string, unknown>[], columns));
        return 0;
      }
      if (sub === 'create') {
        calling('POST', '/v1/compliance/evidence');
        const body = {
          title: need(values.title, '--title'),
          kind: need(values.kind, '--kind'),
          ...(values.uri ? { uri: values.uri } : {}),
          ...(values.system ? { systemId: values.system } : {}),
          ...(values.description ? { description: values.description } : {}),
          controlIds: need(values.controls, '--controls')
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        };
        const created = await svc.compliance.evidence.create({
          body: body as Parameters<typeof svc.compliance.evidence.create>[0]['body'],
        });
        print(g, created, () => autoTable([created as unknown as Record<string, unknown>], columns));
        return 0;
      }
      if (sub === 'get') {
        const id = need(rest[0], 'evidence ID');
        calling('GET', `/v1/compliance/evidence/${id}`);
        const found = await svc.compliance.evidence.get({ params: { id } });
        print(g, found, () => JSON.stringify(found, null, 2));
        return 0;
      }
      throw new UsageError('usage: svc evidence list|create|get');
    }
    case 'tenants': {
      const svc = clientFor(g, 'operator');
      if (sub === 'create') {
        const created = await svc.operator.createTenant({
          body: {
            name: need(values.name, '--name'),
            tier: need(values.tier, '--tier') as 'sandbox',
            ...(values.env ? { env: values.env as 'live' } : {}),
            ...(values['rate-limit'] ? { rateLimitPerSecond: Number(values['rate-limit']) } : {}),
            ...(values.quota ? { monthlyQuota: Number(values.quota) } : {}),
          },
        });
        print(g, created, () =>
          [
            `tenant:  ${created.tenant.id} (${created.tenant.name}, ${created.tenant.tier}, ${created.tenant.env})`,
            `api key: ${created.apiKey.token}  (owner; shown once)`,
          ].join('\n'),
        );
        return 0;
      }
      if (sub === 'list') {
        const tenants = await collect(svc.paginate(svc.operator.listTenants, { query: { limit: 200 } }));
        print(g, tenants, () => table(tenants, ['id', 'name', 'tier', 'env', 'region', 'createdAt']));
        return 0;
      }
      throw new UsageError('usage: svc tenants create|list');
    }
    case 'keys': {
      const svc = clientFor(g, 'operator');
      if (sub === 'create') {
        const key = await svc.operator.createKey({
          body: {
            tenantId: need(values.tenant, '--tenant'),
            role: need(values.role, '--role') as 'viewer',
            ...(values.name ? { name: values.name } : {}),
            ...(values.scopes ? { scopes: values.scopes.split(',').map((s) => s.trim()) } : {}),
            ...(values.expires ? { expiresAt: values.expires } : {}),
            ...(values.person ? { personId: values.person } : {}),
          },
        });
        const actsFor = key.personId ? `acts for ${key.personId}` : 'service key: acts for no person';
        print(g, key, () => `key:   ${key.id} (${key.role}; ${actsFor})\ntoken: ${key.token}  (shown once)`);
        return 0;
      }
      if (sub === 'list') {
        const keys = await collect(
          svc.paginate(svc.operator.listKeys, { query: { tenantId: need(values.tenant, '--tenant'), limit: 200 } }),
        );
        print(g, keys, () => table(keys, ['id', 'name', 'role', 'personId', 'prefix', 'createdAt', 'revokedAt']));
        return 0;
      }
      if (sub === 'revoke') {
        const id = need(rest[0], 'KEY_ID');
        const key = await svc.operator.revokeKey({ params: { id } });
        print(g, key, () => `revoked ${key.id} at ${key.revokedAt}`);
        return 0;
      }
      throw new UsageError('usage: svc keys create|list|revoke');
    }
    case 'audit': {
      if (sub === 'verify') {
        const trust: TrustAnchor = {
          ...(values.trust ? { keys: await readTrustFile(values.trust) } : {}),
          ...(values['key-fingerprint']?.length ? { fingerprints: values['key-fingerprint'] } : {}),
        };
        const report = verifyExportFile(need(rest[0], 'FILE'), trust);
        print(g, report, () => describeVerify(report));
        return report.status === 'valid' ? 0 : report.status === 'unanchored' ? EXIT_UNANCHORED : 2;
      }
      if (sub === 'keys') {
        const { data } = await clientFor(g, 'tenant').audit_trail.keys();
        const out = values.out;
        // The file is the endpoint's body as is, so a key list fetched any other way serves too.
        if (out) writeFileSync(out, `${JSON.stringify({ data }, null, 2)}\n`);
        const keys = data.map((k) => ({ ...k, fingerprint: keyFingerprint(k.publicKey) }));
        print(g, { ...(out ? { file: out } : {}), data: keys }, () =>
          [
            table(
              keys.map((k) => ({ ...k, retiredAt: k.retiredAt ?? '(current)' })),
              ['keyId', 'fingerprint', 'createdAt', 'retiredAt'],
            ),
            ...(out ? [`wrote ${keys.length} keys to ${out}`] : []),
          ].join('\n'),
        );
        return 0;
      }
      if (sub === 'events') {
        const svc = clientFor(g, 'tenant');
        calling('GET', '/v1/audit-trail/events');
        const limit = values.limit ? Number(values.limit) : 50;
        if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive integer');
        const rows: Record<string, unknown>[] = [];
        for await (const e of svc.paginate(svc.audit_trail.events, { query: { limit: Math.min(limit, 200) } })) {
          rows.push(e as unknown as Record<string, unknown>);
          if (rows.length >= limit) break;
        }
        print(g, rows, () => autoTable(rows, ['seq', 'id', 'type', 'action', 'actor', 'objectId', 'occurredAt', 'createdAt']));
        return 0;
      }
      if (sub === 'export') {
        const svc = clientFor(g, 'tenant');
        calling('POST', '/v1/audit-trail/export');
        const out = need(values.out, '--out');
        const chunk = values.chunk === undefined ? EXPORT_CHUNK : Number(values.chunk);
        if (!Number.isInteger(chunk) || chunk < 1 || chunk > 50_000) throw new UsageError('--chunk must be a whole number from 1 to 50000');
        const doc = await exportInChunks(
          svc,
          {
            ...(values['from-seq'] ? { fromSeq: Number(values['from-seq']) } : {}),
            ...(values['to-seq'] ? { toSeq: Number(values['to-seq']) } : {}),
          },
          chunk,
          progress ? (line) => process.stderr.write(`${line}\n`) : undefined,
        );
        writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
        print(g, { file: out, events: doc.events.length, range: doc.range }, () => `wrote ${doc.events.length} events to ${out}`);
        return 0;
      }
      if (sub === 'rotate-key') {
        const key = await clientFor(g, 'operator').operator.rotateSigningKey();
        print(g, key, () => `active signing key: ${key.keyId}`);
        return 0;
      }
      throw new UsageError('usage: svc audit export|keys|verify|rotate-key');
    }
    case 'operator': {
      if (sub !== 'rotate-credential') throw new UsageError('usage: svc operator rotate-credential');
      const rotated = await clientFor(g, 'operator').operator.rotateCredential();
      const file = g.credentials ?? credentialsFile();
      const creds = readCredentials(file);
      // The file keeps working only if it is rewritten: the credential it held is now revoked.
      const updated = creds !== undefined && !process.env.SVC_OPERATOR_TOKEN && !g.key;
      if (updated) writeFileSync(file, `${JSON.stringify({ ...creds, operatorToken: rotated.token }, null, 2)}\n`, { mode: 0o600 });
      print(g, { ...rotated, credentialsFile: updated ? file : null }, () =>
        updated
          ? `operator credential ${rotated.revokedCredentialId} revoked; ${rotated.id} written to ${file}`
          : `operator credential ${rotated.revokedCredentialId} revoked; the new one, shown once:\n${rotated.token}`,
      );
      return 0;
    }
    case 'call': {
      const method = need(sub, 'METHOD').toUpperCase();
      const path = need(rest[0], 'PATH');
      const svc = clientFor(g, values.operator ? 'operator' : 'tenant');
      calling(method, path);
      attempt.raw = true;
      const headers = Object.fromEntries(
        (values.header ?? []).map((h) => {
          const i = h.indexOf(':');
          if (i < 1) throw new UsageError(`bad --header ${h}: use 'Name: value'`);
          return [h.slice(0, i).trim(), h.slice(i + 1).trim()];
        }),
      );
      let body: unknown;
      if (values.data !== undefined) {
        try {
          body = JSON.parse(values.data);
        } catch {
          throw new UsageError('--data must be JSON');
        }
      }
      const res = await svc.request(method, path, { ...(body !== undefined ? { body } : {}), headers });
      // A file (a report's PDF, a pack's zip) goes to stdout as its bytes, as curl writes it.
      if (res.body instanceof Uint8Array) process.stdout.write(res.body);
      else print(g, res.body, () => `${JSON.stringify(res.body, null, 2)}`);
      return 0;
    }
    default:
      throw new UsageError(`unknown command ${command}: the commands are ${Object.keys(COMMANDS).join(', ')}`);
  }
}

/** Events per export request of `svc audit export`: a long trail arrives in pieces, with progress. */
const EXPORT_CHUNK = 5000;

type AuditExportDoc = Awaited<ReturnType<SvcClient['audit_trail']['export']>>;

/**
 * Exports the range in requests of `chunk` events and joins them into one self-contained document:
 * the first piece's anchor, the events in order, every signing key once, and the head and time of
 * the last piece. The end is fixed by the first answer, so events written meanwhile are left out.
 */
async function exportInChunks(
  svc: SvcClient,
  range: { fromSeq?: number; toSeq?: number },
  chunk: number,
  progress: ((line: string) => void) | undefined,
): Promise<AuditExportDoc> {
  const start = range.fromSeq ?? 1;
  const first = await svc.audit_trail.export({
    body: { fromSeq: start, toSeq: Math.min(start + chunk - 1, range.toSeq ?? Number.MAX_SAFE_INTEGER) },
  });
  const end = Math.min(range.toSeq ?? first.head.seq, first.head.seq);
  const total = Math.max(0, end - start + 1);
  const events = [...first.events];
  const keys = new Map(first.publicKeys.map((k) => [k.keyId, k]));
  // Each piece's seal, in order: together they sign the joined range and the last piece's head.
  const seals = [...first.seals];
  let last = first;
  progress?.(`exported ${events.length} of ${total} events`);
  while (events.length > 0 && last.range.toSeq < end) {
    const from = last.range.toSeq + 1;
    const piece = await svc.audit_trail.export({ body: { fromSeq: from, toSeq: Math.min(from + chunk - 1, end) } });
    if (piece.events.length === 0) break;
    last = piece;
    events.push(...last.events);
    seals.push(...last.seals);
    for (const k of last.publicKeys) keys.set(k.keyId, k);
    progress?.(`exported ${events.length} of ${total} events`);
  }
  return {
    ...first,
    exportedAt: last.exportedAt,
    range: { fromSeq: first.range.fromSeq, toSeq: events.at(-1)?.seq ?? first.range.toSeq },
    head: last.head,
    publicKeys: [...keys.values()],
    events,
    seals,
  };
}

/** Runs the CLI and maps every failure to a message on stderr and an exit code; never throws. */
export async function run(argv: string[]): Promise<number> {
  const json = argv.includes('--json');
  try {
    return await main(argv);
  } catch (err) {
    return await report(err, attempt, json);
  }
}
