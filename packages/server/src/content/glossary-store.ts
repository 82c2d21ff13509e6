import type { Prisma } from '../db/client.ts';
import { insertMany, tableOf } from '../db/rows.ts';
import { sqlOf } from '../db/sql.ts';
import type { Logger } from '../logger.ts';
import { CONTENT_ROOT, contentHash, readGlossaryFiles } from './check.ts';
import { inverseRelation, normaliseTerm, type TermRelation } from './glossary.ts';

interface LinkRow {
  fromTerm: string;
  toTerm: string;
  relation: TermRelation;
  origin: 'authored' | 'same-name';
}

/**
 * Loads content/glossary into the store when the files changed since the last load (their hash is
 * kept in content_bundles): every term, its clause's title from the latest dictionary version, the
 * authored links in both directions, and `same-name` links between terms of different dictionaries
 * that share a name or synonym. Links to terms that do not exist are dropped (the content check
 * fails on them). Run after the dictionaries are loaded.
 */
export async function loadGlossary(prisma: Prisma, log: Logger, root = CONTENT_ROOT): Promise<void> {
  const files = readGlossaryFiles(root);
  const hash = contentHash(files.map((f) => [f.key, f.hash]));
  const current = await prisma.contentBundle.findUnique({ where: { kind: 'glossary' } });
  if (current?.hash === hash) return;

  const frameworks = await prisma.framework.findMany({ select: { id: true, latestVersion: true } });
  const latestKey = new Map(frameworks.map((f) => [f.id, `${f.id}@${f.latestVersion}`]));
  const clauses = await prisma.frameworkClause.findMany({
    where: { versionKey: { in: [...latestKey.values()] } },
    select: { versionKey: true, ref: true, title: true },
  });
  const clauseTitle = new Map(clauses.map((c) => [`${c.versionKey}#${c.ref}`, c.title]));

  const terms = files
    .filter((f) => latestKey.has(f.data.dictionary))
    .flatMap((f) => f.data.terms.map((t) => ({ ...t, dictionaryId: f.data.dictionary })))
    .sort((a, b) => normaliseTerm(a.term).localeCompare(normaliseTerm(b.term)) || a.id.localeCompare(b.id));
  const known = new Map(terms.map((t) => [t.id, t]));

  const links = new Map<string, LinkRow>();
  const add = (l: LinkRow) => {
    const k = `${l.fromTerm} ${l.toTerm}`;
    if (!links.has(k)) links.set(k, l);
  };
  for (const t of terms)
    for (const r of t.related) if (known.has(r.term)) add({ fromTerm: t.id, toTerm: r.term, relation: r.relation, origin: 'authored' });
  for (const l of [...links.values()])
    add({ fromTerm: l.toTerm, toTerm: l.fromTerm, relation: inverseRelation(l.relation), origin: 'authored' });
  const byName = new Map<string, Set<string>>();
  for (const t of terms)
    for (const name of [t.term, ...t.synonyms]) {
      const n = normaliseTerm(name);
      if (!byName.has(n)) byName.set(n, new Set());
      byName.get(n)?.add(t.id);
    }
  for (const ids of byName.values())
    for (const a of ids)
      for (const b of ids)
        if (known.get(a)?.dictionaryId !== known.get(b)?.dictionaryId)
          add({ fromTerm: a, toTerm: b, relation: 'related', origin: 'same-name' });

  await prisma.$transaction(async (tx) => {
    // Several processes starting at once on one PostgreSQL: one loads, the others find it loaded.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(7307150224)`;
    const again = await tx.contentBundle.findUnique({ where: { kind: 'glossary' } });
    if (again?.hash === hash) return;
    await tx.glossaryLink.deleteMany({});
    await tx.glossaryTerm.deleteMany({});
    await insertMany(
      sqlOf(tx),
      tableOf(prisma, 'glossaryTerm'),
      terms.map((t, ord) => ({
        id: t.id,
        dictionaryId: t.dictionaryId,
        term: t.term,
        definition: t.definition,
        clauseRef: t.clauseRef,
        clauseTitle: t.clauseRef ? (clauseTitle.get(`${latestKey.get(t.dictionaryId)}#${t.clauseRef}`) ?? null) : null,
        synonyms: t.synonyms,
        searchText: normaliseTerm([t.term, ...t.synonyms, t.definition].join(' ')),
        ord,
      })),
    );
    await insertMany(sqlOf(tx), tableOf(prisma, 'glossaryLink'), [...links.values()]);
    await tx.contentBundle.upsert({
      where: { kind: 'glossary' },
      create: { kind: 'glossary', hash },
      update: { hash, loadedAt: new Date() },
    });
  });
  log.info('glossary loaded', { terms: terms.length, links: links.size });
}
