import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { keyFingerprint } from '@svc/contract';
import { createSvcClient, isSvcError, type SvcClient } from '@svc/sdk';
import { type Credentials, loadConfig, readCredentials } from '@svc/server';
import { EXIT_UNANCHORED, readTrustFile, type TrustAnchor, type VerifyReport, verifyExportFile } from './audit.ts';
import { print as printOut, table } from './output.ts';
import { serve } from './serve.ts';
import { webhooksCommand, withRole } from './webhooks.ts';

const HELP = `svc: operate the compliance platform service

Usage:
  svc serve [--port N] [--host H] [--data-dir DIR] [--role all|api|dispatcher|webhooks]
  svc tenants create --name NAME --tier TIER [--env live|test|dev] [--rate-limit N] [--quota N]
  svc tenants list
  svc keys create --tenant ID --role ROLE [--name NAME] [--scopes a:read,b:write] [--expires ISO]
  svc keys list --tenant ID
  svc keys revoke KEY_ID
  svc audit export --out FILE [--from-seq N] [--to-seq N]
  svc audit keys [--out TRUST_FILE]
  svc audit verify FILE [--trust TRUST_FILE] [--key-fingerprint sha256:HEX ...]
                                   (offline: no server, no database)
  svc audit rotate-key
  svc operator rotate-credential   (the credentials file is updated when it held the old one)
  svc webhooks dlq list [--tenant ID]
  svc webhooks dlq replay DELIVERY_ID | --since ISO [--tenant ID]
  svc call METHOD PATH [--data JSON] [--header 'Name: value'] [--operator]

Every command but serve talks to a running server over HTTP. It finds the URL and
credentials in the file the server wrote on first start (~/.svc/credentials.json, or
SVC_CREDENTIALS_FILE / --credentials), overridden by SVC_URL, SVC_API_KEY, SVC_OPERATOR_TOKEN
or --url / --key. Add --json for machine-readable output.

audit keys lists the public keys that sign the audit trail with their SHA-256 fingerprints;
--out writes them as a trust file. audit verify trusts only the keys of --trust (each within
its validity window) and those pinned by --key-fingerprint, never keys the export carries.
Exit codes: 0 valid (chain intact, signed by trusted keys); 1 usage or API error; 2 broken
(names the first broken link); 3 chain intact but not anchored (no --trust or
--key-fingerprint given, so the signatures were checked only against the file's own keys).
`;

interface Globals {
  json: boolean;
  url: string | undefined;
  key: string | undefined;
  credentials: string | undefined;
}

function context(g: Globals): { url: string; apiKey: string | undefined; operatorToken: string | undefined } {
  const file = g.credentials ?? loadConfig(process.env).credentialsFile;
  let creds: Credentials | undefined;
  try {
    creds = readCredentials(file);
  } catch {
    throw new Error(`cannot read the credentials file ${file}`);
  }
  const url = g.url ?? process.env.SVC_URL ?? creds?.url;
  if (!url) throw new Error(`no server URL: start one with \`svc serve\`, or pass --url (looked in ${file})`);
  return {
    url,
    apiKey: g.key ?? process.env.SVC_API_KEY ?? creds?.apiKey,
    operatorToken: process.env.SVC_OPERATOR_TOKEN ?? creds?.operatorToken,
  };
}

function clientFor(g: Globals, as: 'operator' | 'tenant'): SvcClient {
  const c = context(g);
  const token = as === 'operator' ? (g.key ?? c.operatorToken) : c.apiKey;
  if (!token) throw new Error(`no ${as === 'operator' ? 'operator credential' : 'API key'}: pass --key or set it in the credentials file`);
  return createSvcClient({ baseUrl: c.url, apiKey: token, maxRetries: 2 });
}

function print(g: Globals, value: unknown, human: () => string): void {
  printOut(g.json, value, human);
}

function need(value: string | undefined, flag: string): string {
  if (value === undefined || value === '') throw new Error(`missing ${flag}`);
  return value;
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

function describeVerify(r: VerifyReport): string {
  const span = `${r.checked} events of ${r.tenantId}, seq ${r.range.fromSeq}..${r.range.toSeq}`;
  if (r.status === 'valid') {
    return `valid: ${span}, signed by trusted keys ${r.keys.map((k) => `${k.keyId} (${k.fingerprint}, ${k.trustedBy.replace('_', ' ')})`).join(', ')}`;
  }
  if (r.status === 'unanchored') return `${r.warning}\nchain intact: ${span}`;
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
      data: { type: 'string', short: 'd' },
      header: { type: 'string', short: 'H', multiple: true },
      operator: { type: 'boolean', default: false },
      out: { type: 'string', short: 'o' },
      'from-seq': { type: 'string' },
      'to-seq': { type: 'string' },
      since: { type: 'string' },
      trust: { type: 'string' },
      'key-fingerprint': { type: 'string', multiple: true },
    },
  });
  const g: Globals = { json: values.json ?? false, url: values.url, key: values.key, credentials: values.credentials };
  const [command, sub, ...rest] = positionals;
  if (values.help || !command) {
    process.stdout.write(HELP);
    return command || values.help ? 0 : 1;
  }

  try {
    switch (command) {
      case 'serve':
        return await serve(
          withRole(
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
        });
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
        throw new Error('usage: svc tenants create|list');
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
            },
          });
          print(g, key, () => `key:   ${key.id} (${key.role})\ntoken: ${key.token}  (shown once)`);
          return 0;
        }
        if (sub === 'list') {
          const keys = await collect(
            svc.paginate(svc.operator.listKeys, { query: { tenantId: need(values.tenant, '--tenant'), limit: 200 } }),
          );
          print(g, keys, () => table(keys, ['id', 'name', 'role', 'prefix', 'createdAt', 'revokedAt']));
          return 0;
        }
        if (sub === 'revoke') {
          const id = need(rest[0], 'KEY_ID');
          const key = await svc.operator.revokeKey({ params: { id } });
          print(g, key, () => `revoked ${key.id} at ${key.revokedAt}`);
          return 0;
        }
        throw new Error('usage: svc keys create|list|revoke');
      }
      case 'audit': {
        if (sub === 'verify') {
          const trust: TrustAnchor = {
            ...(values.trust ? { keys: readTrustFile(values.trust) } : {}),
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
        if (sub === 'export') {
          const svc = clientFor(g, 'tenant');
          const doc = await svc.audit_trail.export({
            body: {
              ...(values['from-seq'] ? { fromSeq: Number(values['from-seq']) } : {}),
              ...(values['to-seq'] ? { toSeq: Number(values['to-seq']) } : {}),
            },
          });
          const out = need(values.out, '--out');
          writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
          print(g, { file: out, events: doc.events.length, range: doc.range }, () => `wrote ${doc.events.length} events to ${out}`);
          return 0;
        }
        if (sub === 'rotate-key') {
          const key = await clientFor(g, 'operator').operator.rotateSigningKey();
          print(g, key, () => `active signing key: ${key.keyId}`);
          return 0;
        }
        throw new Error('usage: svc audit export|keys|verify|rotate-key');
      }
      case 'operator': {
        if (sub !== 'rotate-credential') throw new Error('usage: svc operator rotate-credential');
        const rotated = await clientFor(g, 'operator').operator.rotateCredential();
        const file = g.credentials ?? loadConfig(process.env).credentialsFile;
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
        const headers = Object.fromEntries(
          (values.header ?? []).map((h) => {
            const i = h.indexOf(':');
            if (i < 1) throw new Error(`bad --header ${h}: use 'Name: value'`);
            return [h.slice(0, i).trim(), h.slice(i + 1).trim()];
          }),
        );
        let body: unknown;
        if (values.data !== undefined) {
          try {
            body = JSON.parse(values.data);
          } catch {
            throw new Error('--data must be JSON');
          }
        }
        const res = await svc.request(method, path, { ...(body !== undefined ? { body } : {}), headers });
        print(g, res.body, () => `${JSON.stringify(res.body, null, 2)}`);
        return 0;
      }
      default:
        process.stderr.write(`svc: unknown command ${command}\n\n${HELP}`);
        return 1;
    }
  } catch (err) {
    if (isSvcError(err)) {
      if (g.json) {
        process.stdout.write(
          `${JSON.stringify({ error: err.code, message: err.message, details: err.details, correlation_id: err.correlationId }, null, 2)}\n`,
        );
      } else {
        const details = err.details?.length ? ` [${err.details.map((d) => `${d.field}: ${d.issue}`).join('; ')}]` : '';
        process.stderr.write(`svc: ${err.status} ${err.code}: ${err.message}${details} (correlation id ${err.correlationId})\n`);
      }
      return 1;
    }
    throw err;
  }
}
