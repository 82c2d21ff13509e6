import { doc, join, type RailSearch } from '../../search/sources.ts';
import { latestDictionaries } from '../frameworks/search.ts';

/** The glossary's search documents: each term, scoped to its dictionary. */
export const glossarySearch = {
  content: {
    glossary_term: {
      load: async (build) => {
        const [{ scope }, terms] = await Promise.all([
          latestDictionaries(build),
          build.prisma.glossaryTerm.findMany({ orderBy: { ord: 'asc' } }),
        ]);
        return terms.map((t) =>
          doc('glossary_term', t.id, t.term, join(t.synonyms, t.definition), scope(t.dictionaryId), {
            clauseRef: t.clauseRef,
            synonyms: t.synonyms,
          }),
        );
      },
    },
  },
} satisfies RailSearch;
