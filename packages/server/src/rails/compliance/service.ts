import { type attestations, Evidence, type evidence, type obligations, type TenantFramework } from '@svc/contract';
import type { z } from 'zod';
import type { Database, Tx } from '../../db/client.ts';
import { decodeCursor, toPage } from '../../db/pagination.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { Attestation as AttestationRow, Evidence as EvidenceRow, Obligation as ObligationRow } from '../../generated/prisma/client.ts';
import type { Store } from '../../kit.ts';
import { pastMoment } from '../../platform/moments.ts';
import { iso, isoOrNull, rendererOf } from '../../platform/render.ts';

type Page<T> = { data: T[]; cursor: string | null };
type ListOpts = { limit: number; cursor?: string };

const FRAMEWORKS_SQL = `
    SELECT f."id", f."title", f."short_title", f."latest_version", a."version_key", a."created_at" AS "activated_at",
           coalesce(o."total", 0)::int AS "total", coalesce(o."open", 0)::int AS "open"
    FROM "frameworks" f
    LEFT JOIN "framework_activations" a ON a."tenant_id" = $1 AND a."framework_id" = f."id"
    LEFT JOIN LATERAL (
      SELECT count(*) AS "total", count(*) FILTER (WHERE ob."status" = 'open') AS "open"
      FROM "obligations" ob WHERE ob."tenant_id" = $1 AND ob."framework_id" = f."id") o ON a."id" IS NOT NULL
    WHERE f."id" > $2 AND ($3::boolean IS NULL OR (a."id" IS NOT NULL) = $3::boolean)
    ORDER BY f."id" LIMIT $4`;

/** A row of FRAMEWORKS_SQL (test/bench/raw-server.ts reads the same). */
export type FrameworkRow = {
  id: string;
  title: string;
  short_title: string;
  latest_version: string;
  version_key: string | null;
  activated_at: Date | null;
  total: number;
  open: number;
};

/** The catalogue alone, ordered as FRAMEWORKS_SQL orders it (the embedded database collates by byte, "C"). */
const CATALOGUE_SQL = `SELECT "id", "title", "short_title", "latest_version" FROM "frameworks" ORDER BY "id"`;

/** The tenant's activations with their obligation counts, one row per activated framework. */
const ACTIVATIONS_SQL = `
    SELECT a."framework_id", a."version_key", a."created_at" AS "activated_at",
           coalesce(o."total", 0)::int AS "total", coalesce(o."open", 0)::int AS "open"
    FROM "framework_activations" a
    LEFT JOIN LATERAL (
      SELECT count(*) AS "total", count(*) FILTER (WHERE ob."status" = 'open') AS "open"
      FROM "obligations" ob WHERE ob."tenant_id" = $1 AND ob."framework_id" = a."framework_id") o ON true
    WHERE a."tenant_id" = $1`;

type CatalogueRow = Pick<FrameworkRow, 'id' | 'title' | 'short_title' | 'latest_version'>;

/**
 * The framework catalogue of an embedded database, read once. Only the process that holds the
 * embedded database writes to it, and it writes the catalogue only while starting (the content,
 * before the API listens), so the rows read after that hold for the life of the database. On
 * PostgreSQL another process may load other content at any time: there the catalogue is read with
 * every list, in the same statement as the tenant's state.
 */
const catalogues = new WeakMap<Database, Promise<CatalogueRow[]>>();
function embeddedCatalogue(db: Database): Promise<CatalogueRow[]> {
  let rows = catalogues.get(db);
  if (!rows) {
    rows = db.sql.query<CatalogueRow>(CATALOGUE_SQL, []);
    // A failed read is not kept: the next list reads again.
    rows.catch(() => catalogues.delete(db));
    catalogues.set(db, rows);
  }
  return rows;
}

/**
 * One page of FRAMEWORKS_SQL on the embedded database: the cached catalogue joined here with the
 * tenant's activations (a statement over that tenant's rows only). In WebAssembly the catalogue's
 * rows were most of the list's cost: 1,259 µs a call with FRAMEWORKS_SQL, 570 µs this way (one run).
 */
async function embeddedFrameworkRows(db: Database, tenantId: string, after: string, activated: boolean | null, take: number) {
  const [catalogue, activations] = await Promise.all([
    embeddedCatalogue(db),
    db.sql.query<Omit<FrameworkRow, keyof CatalogueRow> & { framework_id: string }>(ACTIVATIONS_SQL, [tenantId]),
  ]);
  const byFramework = new Map(activations.map((a) => [a.framework_id, a]));
  const rows: FrameworkRow[] = [];
  for (const f of catalogue) {
    if (rows.length === take) break;
    if (f.id <= after) continue;
    const a = byFramework.get(f.id);
    if (activated !== null && (a !== undefined) !== activated) continue;
    rows.push({
      ...f,
      version_key: a?.version_key ?? null,
      activated_at: a?.activated_at ?? null,
      total: a?.total ?? 0,
      open: a?.open ?? 0,
    });
  }
  return rows;
}

/**
 * The framework catalogue with the tenant's activation state and obligation counts: one statement
 * (the hot read of the compliance rail), keyset-paginated by framework id.
 */
export async function listTenantFrameworks(
  db: Database,
  tenantId: string,
  opts: ListOpts & { activated?: 'true' | 'false' },
): Promise<Page<z.infer<typeof TenantFramework>>> {
  const after = decodeCursor(opts.cursor, 'string') ?? '';
  const activated = opts.activated === undefined ? null : opts.activated === 'true';
  const rows =
    db.kind === 'pglite'
      ? await embeddedFrameworkRows(db, tenantId, after, activated, opts.limit + 1)
      : await db.sql.query<FrameworkRow>(FRAMEWORKS_SQL, [tenantId, after, activated, opts.limit + 1], { prepare: true });
  return toPage(
    rows,
    opts.limit,
    (r) => r.id,
    (r) => ({
      object: 'svc.compliance.framework' as const,
      id: r.id,
      title: r.title,
      shortTitle: r.short_title,
      latestVersion: r.latest_version,
      activated: r.version_key !== null,
      dictionaryVersion: r.version_key,
      activatedAt: isoOrNull(r.activated_at),
      obligations: { total: Number(r.total), open: Number(r.open) },
    }),
  );
}

export const obligationStore: Store<typeof obligations> = {
  model: 'obligation',
  computed: {
    framework: (r: ObligationRow) => r.frameworkId,
    dictionaryVersion: (r: ObligationRow) => r.versionKey,
    dueDate: (r: ObligationRow) => iso(r.dueDate).slice(0, 10),
  },
  filterWhere: { framework: (v) => ({ frameworkId: v }) },
};

/** Control ids that are not in any framework version the tenant has activated. */
async function unknownControls(db: Tx, shared: Tx, controlIds: string[]): Promise<string[]> {
  const versions = (await db.frameworkActivation.findMany({ select: { versionKey: true } })).map((a) => a.versionKey);
  const found = await shared.frameworkControl.findMany({
    where: { versionKey: { in: versions }, id: { in: controlIds } },
    select: { id: true },
  });
  const known = new Set(found.map((c) => c.id));
  return controlIds.filter((id) => !known.has(id));
}

export const evidenceStore = {
  model: 'evidence',
  render: rendererOf<EvidenceRow>()(Evidence, { sizeBytes: (r) => (r.sizeBytes === null ? null : Number(r.sizeBytes)) }),
  filterWhere: { controlId: (v) => ({ controlIds: { has: v } }) },
  create: async ({ db, shared, who, body }) => {
    const controlIds = [...new Set(body.controlIds)];
    const unknown = await unknownControls(db, shared, controlIds);
    if (unknown.length > 0) {
      throw new ApiError(
        'validation_failed',
        `Evidence can only support controls of activated frameworks; unknown: ${unknown.join(', ')}.`,
        unknown.map((id) => ({
          field: `controlIds.${body.controlIds.indexOf(id)}`,
          issue: 'invalid_value',
          message: `control ${id} is not in an activated framework`,
        })),
      );
    }
    return {
      title: body.title,
      kind: body.kind,
      description: body.description ?? null,
      uri: body.uri ?? null,
      sha256: body.sha256 ?? null,
      mediaType: body.mediaType ?? null,
      sizeBytes: body.sizeBytes ?? null,
      systemId: body.systemId ?? null,
      controlIds,
      collectedAt: pastMoment('collectedAt', body.collectedAt),
      expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
      createdBy: who.actor,
    };
  },
  auditData: (e) => ({ controlIds: e.controlIds, kind: e.kind, sha256: e.sha256 }),
} satisfies Store<typeof evidence>;

export const attestationStore: Store<typeof attestations> = {
  model: 'attestation',
  computed: {
    subject: (r: AttestationRow) => ({ type: r.subjectType as 'control' | 'assessment', id: r.subjectId }),
    attester: (r: AttestationRow) => ({ name: r.attesterName, email: r.attesterEmail, title: r.attesterTitle }),
  },
  create: async ({ db, shared, who, body }) => {
    const attestedAt = pastMoment('attestedAt', body.attestedAt);
    if (body.subject.type === 'assessment') {
      const found = await db.assessment.findFirst({ where: { id: body.subject.id }, select: { id: true } });
      if (!found) throw notFound('Assessment', body.subject.id);
    } else if ((await unknownControls(db, shared, [body.subject.id])).length > 0) {
      throw new ApiError('validation_failed', `Control ${body.subject.id} is not in an activated framework.`, [
        { field: 'subject.id', issue: 'invalid_value' },
      ]);
    }
    return {
      subjectType: body.subject.type,
      subjectId: body.subject.id,
      statement: body.statement,
      attesterName: body.attester.name,
      attesterEmail: body.attester.email,
      attesterTitle: body.attester.title ?? null,
      attestedAt,
      createdBy: who.actor,
    };
  },
  auditData: (a) => ({ subject: a.subject, attester: a.attester.email }),
};
