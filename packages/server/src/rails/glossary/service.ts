import type { GlossaryTerm } from '@svc/contract';
import type { z } from 'zod';
import { normaliseTerm } from '../../content/glossary.ts';
import type { Prisma } from '../../db/client.ts';
import { keysetList } from '../../db/pagination.ts';
import { ApiError } from '../../errors.ts';
import type { GlossaryTerm as TermRow } from '../../generated/prisma/client.ts';

type Term = z.infer<typeof GlossaryTerm>;

/** Terms with their edges: one query for the links of the page, one for the labels they point at. */
async function render(prisma: Prisma, rows: TermRow[]): Promise<Term[]> {
  const links = rows.length ? await prisma.glossaryLink.findMany({ where: { fromTerm: { in: rows.map((r) => r.id) } } }) : [];
  const targets = links.length
    ? await prisma.glossaryTerm.findMany({
        where: { id: { in: [...new Set(links.map((l) => l.toTerm))] } },
        select: { id: true, term: true, dictionaryId: true },
      })
    : [];
  const label = new Map(targets.map((t) => [t.id, t]));
  return rows.map((r) => ({
    object: 'svc.glossary.term' as const,
    id: r.id,
    term: r.term,
    definition: r.definition,
    dictionary: r.dictionaryId,
    clause: r.clauseRef ? { ref: r.clauseRef, title: r.clauseTitle } : null,
    synonyms: r.synonyms,
    related: links
      .filter((l) => l.fromTerm === r.id && label.has(l.toTerm))
      .map((l) => {
        const t = label.get(l.toTerm) as { id: string; term: string; dictionaryId: string };
        return {
          term: t.id,
          label: t.term,
          dictionary: t.dictionaryId,
          relation: l.relation as Term['related'][number]['relation'],
          origin: l.origin as Term['related'][number]['origin'],
        };
      })
      .sort((a, b) => a.dictionary.localeCompare(b.dictionary) || a.term.localeCompare(b.term)),
  }));
}

export async function listTerms(
  prisma: Prisma,
  query: { limit: number; cursor?: string; dictionary?: string; q?: string },
): Promise<{ data: Term[]; cursor: string | null }> {
  const words = query.q ? normaliseTerm(query.q).split(' ').filter(Boolean) : [];
  if (query.q !== undefined && words.length === 0)
    throw new ApiError('validation_failed', 'The search text has no letters or digits.', [{ field: 'q', issue: 'no_words' }]);
  const page = await keysetList(prisma.glossaryTerm, query, {
    key: 'ord',
    order: 'asc',
    filters: ['dictionary'],
    filterWhere: { dictionary: (v) => ({ dictionaryId: v }) },
    where: words.length ? { AND: words.map((w) => ({ searchText: { contains: w } })) } : {},
    render: (r: TermRow) => r,
  });
  return { data: await render(prisma, page.data), cursor: page.cursor };
}

export async function getTerm(prisma: Prisma, id: string): Promise<Term> {
  const row = await prisma.glossaryTerm.findUnique({ where: { id } });
  if (!row) throw new ApiError('not_found', `Glossary term ${id} was not found.`);
  return (await render(prisma, [row]))[0] as Term;
}
