import type { Response } from 'express';
import type { Database } from '../../db/client.ts';
import { insertStatement, type Row, rowFromJson, tableOf } from '../../db/rows.ts';
import { idempotencyCompletion, idempotencyStored } from '../../http/idempotency.ts';
import { type Actor, HEAD_PARAMS, recordRowChange } from './changes.ts';

/** What a versioned record of a tenant is: its table, how it is read back and what its event says. */
export interface VersionedAppend<Previous, Rec> {
  /** Prisma model of the table (`governanceSnapshot`); its rows carry `tenantId` and `version`. */
  model: string;
  id: string;
  action: string;
  resourceType: string;
  /** Columns of the latest version the next one is built from (`"version", "hash"`). */
  previousColumns: string;
  /** The new row, without `id`, `tenantId` and `version`, from the latest version (if any). */
  build: (previous: Previous | undefined) => Record<string, unknown>;
  render: (row: Row) => Rec;
  /** The audit event's data. */
  eventData: (record: Rec) => Record<string, unknown>;
}

/**
 * Appends the tenant's next version of a record (a snapshot): a transaction-scoped advisory lock on
 * the tenant's sequence makes concurrent requests take versions one after the other (the unique
 * (tenant, version) index is the backstop); the row, its audit event, event-index row, webhook event
 * and idempotency record commit together, in two round trips after the lock.
 */
export async function appendVersion<Previous extends { version: number }, Rec>(
  database: Database,
  who: Actor,
  res: Response,
  spec: VersionedAppend<Previous, Rec>,
): Promise<Rec> {
  const table = tableOf(database.prisma, spec.model);
  let record: Rec | undefined;
  await database.transaction(async (sql) => {
    await sql.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`${spec.resourceType}:${who.tenantId}`], { prepare: true });
    const [previous] = await sql.query<Previous>(
      `SELECT ${spec.previousColumns} FROM "${table.name}" WHERE "tenant_id" = $1 ORDER BY "version" DESC LIMIT 1`,
      [who.tenantId],
      { prepare: true },
    );
    const data = { id: spec.id, tenantId: who.tenantId, version: (previous?.version ?? 0) + 1, ...spec.build(previous) };
    await recordRowChange(
      sql,
      {
        tenantId: who.tenantId,
        action: spec.action,
        insert: insertStatement(table, data, HEAD_PARAMS),
        complete: (row) => {
          const rec = spec.render(rowFromJson(table, row));
          record = rec;
          return {
            ...who,
            action: spec.action,
            resourceType: spec.resourceType,
            resourceId: spec.id,
            data: spec.eventData(rec),
            resource: rec,
          };
        },
      },
      { also: (p) => [idempotencyCompletion(res, 201, record)?.(p)].filter((c): c is string => c !== undefined) },
    );
  });
  idempotencyStored(res);
  return record as Rec;
}
