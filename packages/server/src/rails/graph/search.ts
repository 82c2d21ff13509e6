import { doc, join, type RailSearch } from '../../search/sources.ts';
import { latestClauses, latestControls, latestDictionaries } from '../frameworks/search.ts';

/** The crosswalk graph's search documents: each edge, both ends titled from the latest version of their dictionary. */
export const graphSearch = {
  content: {
    crosswalk: {
      load: async (build) => {
        const [{ dictOf }, controls, clauses, edges] = await Promise.all([
          latestDictionaries(build),
          latestControls(build),
          latestClauses(build),
          build.prisma.crosswalkEdge.findMany({ orderBy: { seq: 'asc' } }),
        ]);
        const titles = new Map<string, string>();
        for (const c of controls) titles.set(`${dictOf(c.versionKey)}|control|${c.id}`, c.title);
        for (const c of clauses) titles.set(`${dictOf(c.versionKey)}|clause|${c.ref}`, c.title);
        return edges.map((e) => {
          const fromTitle = titles.get(`${e.fromDict}|${e.fromKind}|${e.fromRef}`) ?? null;
          const toTitle = titles.get(`${e.toDict}|${e.toKind}|${e.toRef}`) ?? null;
          return doc(
            'crosswalk',
            `${e.crosswalkId}#${e.ord}`,
            `${e.fromDict} ${e.fromRef} ${e.relationship} ${e.toDict} ${e.toRef}`,
            join(fromTitle, toTitle, e.note),
            { framework: [...new Set([e.fromDict, e.toDict])], relationship: e.relationship, rationale: e.rationale },
            {
              crosswalk: e.crosswalkId,
              from: `${e.fromDict}/${e.fromKind}:${e.fromRef}`,
              to: `${e.toDict}/${e.toKind}:${e.toRef}`,
              fromTitle,
              toTitle,
              strength: e.strength,
            },
          );
        });
      },
    },
  },
} satisfies RailSearch;
