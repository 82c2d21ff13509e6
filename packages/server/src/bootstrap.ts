import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Prisma } from './db/client.ts';
import { newId } from './ids.ts';
import { issueApiKey, issueOperatorCredential } from './platform/credentials.ts';
import { recordChange } from './platform/ledger/changes.ts';
import { renderTenant } from './rails/operator/service.ts';

export interface Credentials {
  url: string;
  tenantId: string;
  apiKey: string;
  operatorToken: string;
}

export interface FirstStart {
  tenantId: string;
  apiKey: string;
  operatorToken: string;
}

/**
 * On an empty database: a sandbox tenant, its owner key and an operator credential. Returns the
 * secrets (they are stored hashed, so this is the only time they exist in clear), or undefined
 * when the database already had data.
 */
export async function bootstrapIfEmpty(prisma: Prisma): Promise<FirstStart | undefined> {
  return prisma.$transaction(async (tx) => {
    // Serialise concurrent first starts on one PostgreSQL.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(7307150222)`;
    if ((await tx.operatorCredential.count()) > 0) return undefined;
    const tenant = await tx.tenant.create({
      data: { id: newId('ten'), name: 'Sandbox', tier: 'sandbox', env: 'test', region: 'eu' },
    });
    const { token: apiKey } = await issueApiKey(tx, { tenantId: tenant.id, env: 'test', role: 'owner', name: 'first-start owner key' });
    const { credential, token: operatorToken } = await issueOperatorCredential(tx, 'first-start operator');
    await recordChange(tx, {
      tenantId: tenant.id,
      actor: credential.id,
      correlationId: 'first-start',
      action: 'tenant.created',
      resourceType: 'svc.operator.tenant',
      resourceId: tenant.id,
      data: { name: tenant.name, tier: tenant.tier, env: tenant.env },
      resource: renderTenant(tenant),
    });
    return { tenantId: tenant.id, apiKey, operatorToken };
  });
}

/** Writes the credentials file the CLI reads (mode 0600), or refreshes its URL on later starts. */
export function writeCredentials(file: string, url: string, first: FirstStart | undefined): void {
  if (first) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ url, ...first } satisfies Credentials, null, 2)}\n`, { mode: 0o600 });
    return;
  }
  if (!existsSync(file)) return;
  try {
    const current = JSON.parse(readFileSync(file, 'utf8')) as Credentials;
    if (current.url !== url) writeFileSync(file, `${JSON.stringify({ ...current, url }, null, 2)}\n`, { mode: 0o600 });
  } catch {
    // A file we cannot read is left alone; the CLI reports it.
  }
}

export function readCredentials(file: string): Credentials | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as Credentials;
}
