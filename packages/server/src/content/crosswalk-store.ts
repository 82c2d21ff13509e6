import type { Prisma } from '../db/client.ts';
import { insertMany, tableOf } from '../db/rows.ts';
import { sqlOf } from '../db/sql.ts';
import type { Logger } from '../logger.ts';
import { CONTENT_ROOT, contentHash, readCrosswalkFiles } from './check.ts';
import { parseEndpoint } from './crosswalks.ts';

/**
 * Loads content/crosswalks into crosswalk_edges when the files changed since the last load (their
 * hash is kept in content_bundles), replacing the previous edges as a whole. Edges whose
 * dictionaries are not loaded are left out (the content check fails on them).
 */
export async function loadCrosswalks(prisma: Prisma, log: Logger, root = CONTENT_ROOT): Promise<void> {
  const files = readCrosswalkFiles(root);
  const hash = contentHash(files.map((f) => [f.key, f.hash]));
  const current = await prisma.contentBundle.findUnique({ where: { kind: 'crosswalks' } });
  if (current?.hash === hash) return;
  const known = new Set((await prisma.framework.findMany({ select: { id: true } })).map((f) => f.id));
  let seq = 0;
  const rows = files
    .filter((f) => known.has(f.data.from) && known.has(f.data.to))
    .flatMap(({ data: x }) =>
      x.edges.map((e, ord) => {
        const from = parseEndpoint(e.from);
        const to = parseEndpoint(e.to);
        return {
          crosswalkId: x.id,
          ord,
          origin: x.source.kind,
          fromDict: x.from,
          fromKind: from.kind,
          fromRef: from.ref,
          toDict: x.to,
          toKind: to.kind,
          toRef: to.ref,
          relationship: e.relationship,
          rationale: e.rationale,
          strength: e.strength,
          note: e.note,
          seq: seq++,
        };
      }),
    );
  await prisma.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(7307150225)`;
    const again = await tx.contentBundle.findUnique({ where: { kind: 'crosswalks' } });
    if (again?.hash === hash) return;
    await tx.crosswalkEdge.deleteMany({});
    await insertMany(sqlOf(tx), tableOf(prisma, 'crosswalkEdge'), rows);
    await tx.contentBundle.upsert({
      where: { kind: 'crosswalks' },
      create: { kind: 'crosswalks', hash },
      update: { hash, loadedAt: new Date() },
    });
  });
  log.info('crosswalks loaded', { crosswalks: files.length, edges: rows.length });
}
