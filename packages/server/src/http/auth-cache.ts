import type { ApiKey, Tenant } from '../generated/prisma/client.ts';

/**
 * A short-lived cache of resolved API keys, so that a busy client does not cost two database
 * reads per request. Revoking a key through this process drops it at once; other processes see
 * the revocation within the TTL (SVC_AUTH_CACHE_SECONDS; 0 turns the cache off).
 */
interface Entry {
  key: ApiKey;
  tenant: Tenant;
  until: number;
}

const MAX_ENTRIES = 10_000;
const entries = new Map<string, Entry>();

export function cachedCredential(hash: string, now: number): Entry | undefined {
  const e = entries.get(hash);
  if (!e) return undefined;
  if (e.until <= now) {
    entries.delete(hash);
    return undefined;
  }
  return e;
}

export function cacheCredential(hash: string, key: ApiKey, tenant: Tenant, ttlMs: number, now: number): void {
  if (ttlMs <= 0) return;
  if (entries.size >= MAX_ENTRIES) {
    const oldest = entries.keys().next().value;
    if (oldest !== undefined) entries.delete(oldest);
  }
  entries.set(hash, { key, tenant, until: now + ttlMs });
}

/** Drops every cached entry of a key (revoked) or of a tenant (changed). */
export function forgetCredential(match: { keyId?: string; tenantId?: string }): void {
  for (const [hash, e] of entries) {
    if ((match.keyId && e.key.id === match.keyId) || (match.tenantId && e.tenant.id === match.tenantId)) entries.delete(hash);
  }
}
