import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../config.ts';
import type { Prisma, Tx } from '../db/client.ts';
import type { Sql } from '../db/sql.ts';
import { newId } from '../ids.ts';
import type { Logger } from '../logger.ts';
import { recordChange } from '../platform/ledger/changes.ts';
import { configureSecretsKey, isSealed, openedWithPreviousOnly, SEALED_PREFIX, sealSecret, secretsKeyId } from './secret-box.ts';

export const SECRETS_KEY_FILE = 'secrets.key';

let ephemeralKey: string | undefined;

export interface SecretsKeySource {
  /** Where the key came from: the environment, a key file (its path), or memory for an in-memory database. */
  source: 'configured' | 'file' | 'ephemeral';
  file?: string;
}

/**
 * The key that seals webhook secrets at rest, on every install (a secret the service must read back
 * cannot be hashed, so it is encrypted):
 * - `SVC_SECRETS_KEY` when set (the only choice for several processes on several machines);
 * - on the embedded database, a key generated at first start and kept beside the data
 *   (`<data dir>/secrets.key`, mode 0600): losing it loses the secrets it sealed (they are
 *   re-issued by rotating them);
 * - on PostgreSQL without live tenants (a development or test database), the same kind of file
 *   beside the credentials file;
 * - on PostgreSQL with live tenants and no `SVC_SECRETS_KEY`, no start: a live deployment must
 *   hold its key where every process, and its operators, can find it.
 * An in-memory database gets a key in memory: its sealed rows die with it.
 */
export async function resolveSecretsKey(config: Config, prisma: Prisma): Promise<SecretsKeySource> {
  if (config.secretsKey) {
    configureSecretsKey(config.secretsKey, config.previousSecretsKey);
    return { source: 'configured' };
  }
  if (config.previousSecretsKey) {
    throw new Error('SVC_SECRETS_KEY_PREVIOUS is set without SVC_SECRETS_KEY: a rotation needs the new key in SVC_SECRETS_KEY');
  }
  if (!config.databaseUrl && config.dataDir.startsWith('memory://')) {
    // One per process: in-memory databases of one process (tests) share the process's key.
    ephemeralKey ??= randomBytes(32).toString('base64');
    configureSecretsKey(ephemeralKey);
    return { source: 'ephemeral' };
  }
  const file = config.databaseUrl ? join(dirname(config.credentialsFile), SECRETS_KEY_FILE) : join(config.dataDir, SECRETS_KEY_FILE);
  if (config.databaseUrl) {
    const live = await prisma.tenant.count({ where: { env: 'live' } });
    if (live > 0) {
      const hint = existsSync(file)
        ? ` The secrets written so far were sealed with the key in ${file}: set SVC_SECRETS_KEY to its content.`
        : '';
      throw new Error(
        `SVC_SECRETS_KEY must be set on PostgreSQL when live tenants exist (${live} here): 32 random bytes, base64 (for example \`openssl rand -base64 32\`), the same for every process.${hint}`,
      );
    }
  }
  configureSecretsKey(readOrCreateKeyFile(file));
  return { source: 'file', file };
}

function readOrCreateKeyFile(file: string): string {
  if (existsSync(file)) {
    const mode = statSync(file).mode & 0o777;
    // A key others can read seals nothing: tighten it rather than start with it open.
    if (mode & 0o077) chmodSync(file, 0o600);
    const key = readFileSync(file, 'utf8').trim();
    if (Buffer.from(key, 'base64').length !== 32) throw new Error(`${file} does not hold a 32-byte base64 key`);
    return key;
  }
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const key = randomBytes(32).toString('base64');
  // 'wx': two processes starting at once must not both write a key; the loser reads the winner's.
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readOrCreateKeyFile(file);
    throw err;
  }
  return key;
}

type SecretRow = { tenantId: string; secret: string; previousSecret: string | null };

/**
 * Rewrites the stored secrets of the rows `needs` picks with `rewrite`, one transaction per tenant
 * with one audit event (`action`, the counts and `data`). Each update is conditional on the row
 * still holding what was read, so processes starting together rewrite each row once.
 */
async function rewriteSecrets(
  prisma: Prisma,
  needs: (r: SecretRow) => boolean,
  rewrite: (stored: string) => string,
  action: string,
  data: Record<string, unknown> = {},
): Promise<{ rows: number; tenants: number }> {
  const select = { tenantId: true, secret: true, previousSecret: true } as const;
  const subs = (await prisma.webhookSubscription.findMany({ select: { ...select, id: true } })).filter(needs);
  const inbound = (await prisma.webhookInboundSecret.findMany({ select: { ...select, provider: true } })).filter(needs);
  const next = (r: SecretRow) => ({
    secret: rewrite(r.secret),
    previousSecret: r.previousSecret === null ? null : rewrite(r.previousSecret),
  });
  // The other sealed columns (one value each): read alike, rewritten alike.
  const others = await Promise.all(
    SEALED_COLUMNS.map(async (c) => {
      const found = (await delegate(prisma, c.model).findMany({
        where: { [c.field]: { not: null } },
        select: { id: true, tenantId: true, [c.field]: true },
      })) as Record<string, string>[];
      return {
        ...c,
        rows: found.filter((r) => needs({ tenantId: r.tenantId as string, secret: r[c.field] as string, previousSecret: null })),
      };
    }),
  );
  const tenants = new Set([...subs, ...inbound, ...others.flatMap((o) => o.rows)].map((r) => r.tenantId as string));
  let rows = 0;
  for (const tenantId of tenants) {
    await prisma.$transaction(async (tx) => {
      let subscriptions = 0;
      let inboundSecrets = 0;
      for (const r of subs.filter((x) => x.tenantId === tenantId)) {
        const where = { id: r.id, secret: r.secret, previousSecret: r.previousSecret };
        subscriptions += (await tx.webhookSubscription.updateMany({ where, data: next(r) })).count;
      }
      for (const r of inbound.filter((x) => x.tenantId === tenantId)) {
        const where = { tenantId, provider: r.provider, secret: r.secret, previousSecret: r.previousSecret };
        inboundSecrets += (await tx.webhookInboundSecret.updateMany({ where, data: next(r) })).count;
      }
      const counts: Record<string, number> = {};
      for (const o of others) {
        let n = 0;
        for (const r of o.rows.filter((x) => x.tenantId === tenantId)) {
          const stored = r[o.field] as string;
          n += (await delegate(tx, o.model).updateMany({ where: { id: r.id, [o.field]: stored }, data: { [o.field]: rewrite(stored) } }))
            .count;
        }
        if (n > 0) counts[o.count] = n;
      }
      const other = Object.values(counts).reduce((a, b) => a + b, 0);
      if (subscriptions + inboundSecrets + other === 0) return;
      await recordChange(tx, {
        tenantId,
        actor: 'system',
        correlationId: newId('cor'),
        action,
        resourceType: 'svc.webhooks',
        resourceId: tenantId,
        data: { ...data, subscriptions, inboundSecrets, ...counts },
      });
      rows += subscriptions + inboundSecrets + other;
    });
  }
  return { rows, tenants: tenants.size };
}

/**
 * Columns sealed with the secrets key besides the webhook secrets: each re-sealed by a key
 * rotation (and sealed at start if ever found in clear), counted under `count` in the audit event.
 */
const SEALED_COLUMNS = [
  { model: 'notificationChannel', field: 'url', count: 'notificationChannels' },
  { model: 'redTeamTarget', field: 'headersSealed', count: 'redTeamTargets' },
  { model: 'whistleblowerReport', field: 'identitySealed', count: 'whistleblowerReports' },
] as const;

/** The tables and columns of every sealed value: the two webhook secret tables' and SEALED_COLUMNS'. */
const SEALED_SQL_COLUMNS: readonly (readonly [table: string, columns: readonly string[]])[] = [
  ['webhook_subscriptions', ['secret', 'previous_secret']],
  ['webhook_inbound_secrets', ['secret', 'previous_secret']],
  ['notification_channels', ['url']],
  ['red_team_targets', ['headers_sealed']],
  ['whistleblower_reports', ['identity_sealed']],
];
/** Whether any of them holds a value not sealed (a NULL is not a value: `NOT LIKE` leaves it out). */
const CLEAR_SECRETS_SQL = `SELECT EXISTS (${SEALED_SQL_COLUMNS.map(
  ([table, columns]) => `SELECT 1 FROM ${table} WHERE ${columns.map((c) => `${c} NOT LIKE $1`).join(' OR ')}`,
).join(' UNION ALL ')}) AS clear`;

type Delegate = {
  findMany(args: object): Promise<unknown[]>;
  updateMany(args: object): Promise<{ count: number }>;
};
const delegate = (client: Prisma | Tx, model: string) => (client as unknown as Record<string, Delegate>)[model] as Delegate;

/**
 * Rows written before secrets were sealed (or while no key was configured) are sealed once, at
 * start, each tenant's with a `webhook_secrets.sealed` audit event saying how many.
 */
export async function sealExistingSecrets(db: { prisma: Prisma; sql: Sql }, log: Logger): Promise<number> {
  // Usually every value is sealed already: one statement says so, where reading each table through
  // Prisma cost a start about 150 ms (five queries, each compiled at its first use).
  const [found] = await db.sql.query<{ clear: boolean }>(CLEAR_SECRETS_SQL, [`${SEALED_PREFIX}%`]);
  if (found?.clear !== true) return 0;
  const prisma = db.prisma;
  const clear = (v: string | null) => v !== null && !isSealed(v);
  const { rows, tenants } = await rewriteSecrets(
    prisma,
    (r) => clear(r.secret) || clear(r.previousSecret),
    (v) => (isSealed(v) ? v : sealSecret(v)),
    'webhook_secrets.sealed',
  );
  if (rows > 0) log.info('webhook secrets sealed at rest', { rows, tenants });
  return rows;
}

/**
 * The second half of a secrets-key rotation (`SVC_SECRETS_KEY` the new key,
 * `SVC_SECRETS_KEY_PREVIOUS` the old one): rows still sealed under the old key are re-sealed under
 * the new one at start, each tenant's with a `secrets_key.rotated` audit event naming both keys by
 * id (never by value). Until every process runs with the new key, those still on the old one read
 * only rows they can open; processes on the new key read both. Once this has run, the previous key
 * can be dropped from the configuration.
 */
export async function resealUnderCurrentKey(prisma: Prisma, config: Config, log: Logger): Promise<number> {
  if (!config.secretsKey || !config.previousSecretsKey) return 0;
  const stale = (v: string | null) => v !== null && openedWithPreviousOnly(v) !== undefined;
  const keyId = secretsKeyId(config.secretsKey);
  const { rows, tenants } = await rewriteSecrets(
    prisma,
    (r) => stale(r.secret) || stale(r.previousSecret),
    (v) => {
      const opened = openedWithPreviousOnly(v);
      return opened === undefined ? v : sealSecret(opened);
    },
    'secrets_key.rotated',
    { keyId, previousKeyId: secretsKeyId(config.previousSecretsKey) },
  );
  if (rows > 0) log.info('webhook secrets re-sealed under the new secrets key', { rows, tenants, key_id: keyId });
  return rows;
}
