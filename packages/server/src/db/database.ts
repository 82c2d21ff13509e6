import type { Sql } from './sql.ts';
import type { Prisma } from './types.ts';

/** A connection of its own, outside Prisma (migrations, advisory locks). */
export interface SqlSession {
  /** Runs a script of several SQL statements. */
  execScript(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** The database the service runs on, PGlite or PostgreSQL (client.ts opens it). */
export interface Database {
  readonly kind: 'pglite' | 'postgresql';
  readonly prisma: Prisma;
  /** Statements outside any transaction, without the ORM (see sql.ts). */
  readonly sql: Sql;
  /** Runs `fn` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /** Runs `fn` on one dedicated connection, outside Prisma (migrations, advisory locks). */
  session<T>(fn: (s: SqlSession) => Promise<T>): Promise<T>;
  /** PGlite only: the whole cluster as a tarball, checkpointed (pglite-dump.ts), which `snapshot` starts another one from. */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}
