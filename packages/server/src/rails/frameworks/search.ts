import { type ContentBuild, doc, join, type RailSearch } from '../../search/sources.ts';

/**
 * The dictionaries' search documents: the latest version of each dictionary, its controls, clauses,
 * obligations and assessment questions. The latest versions and their controls and clauses are
 * read once per build, shared with the kinds of other rails that derive from them (glossary terms,
 * crosswalk edges).
 */

/** Every dictionary and the keys of its latest versions. */
async function readLatest({ prisma }: ContentBuild) {
  const frameworks = await prisma.framework.findMany({ orderBy: { id: 'asc' } });
  const keys = frameworks.map((f) => `${f.id}@${f.latestVersion}`);
  const byKey = new Map(frameworks.map((f) => [`${f.id}@${f.latestVersion}`, f]));
  const jurisdictionOf = new Map(frameworks.map((f) => [f.id, f.jurisdiction]));
  return {
    frameworks,
    /** The rows of the latest versions, in version and position order. */
    inLatest: { where: { versionKey: { in: keys } }, orderBy: [{ versionKey: 'asc' as const }, { ord: 'asc' as const }] },
    /** The dictionary of a version key (`eu-ai-act@2024-07` -> `eu-ai-act`). */
    dictOf: (versionKey: string) => byKey.get(versionKey)?.id ?? versionKey.slice(0, versionKey.lastIndexOf('@')),
    /** The facets of a record of the dictionary: the dictionary and its jurisdiction. */
    scope: (framework: string) => ({ framework: [framework], jurisdiction: [jurisdictionOf.get(framework) ?? ''].filter(Boolean) }),
  };
}

/** The latest version of each dictionary, read once per build. */
export const latestDictionaries = (build: ContentBuild) => build.once(readLatest);

const readControls = async (build: ContentBuild) => build.prisma.frameworkControl.findMany((await latestDictionaries(build)).inLatest);
const readClauses = async (build: ContentBuild) => build.prisma.frameworkClause.findMany((await latestDictionaries(build)).inLatest);

/** The controls of the latest versions, read once per build. */
export const latestControls = (build: ContentBuild) => build.once(readControls);
/** The clauses of the latest versions, read once per build. */
export const latestClauses = (build: ContentBuild) => build.once(readClauses);

export const frameworksSearch = {
  content: {
    framework: {
      load: async (build) => {
        const { frameworks, scope } = await latestDictionaries(build);
        return frameworks.map((f) =>
          doc(
            'framework',
            f.id,
            f.title,
            join(f.shortTitle, f.description, f.publisher),
            { ...scope(f.id), type: f.kind },
            {
              version: f.latestVersion,
              shortTitle: f.shortTitle,
            },
          ),
        );
      },
    },
    control: {
      load: async (build) => {
        const [{ dictOf, scope }, controls] = await Promise.all([latestDictionaries(build), latestControls(build)]);
        return controls.map((c) =>
          doc(
            'control',
            `${c.versionKey}/${c.id}`,
            c.title,
            join(c.id, c.description, c.category),
            { ...scope(dictOf(c.versionKey)), category: c.category },
            {
              controlId: c.id,
              version: c.versionKey,
              clauseRefs: c.clauseRefs,
            },
          ),
        );
      },
    },
    clause: {
      load: async (build) => {
        const [{ dictOf, scope }, clauses] = await Promise.all([latestDictionaries(build), latestClauses(build)]);
        return clauses.map((c) =>
          doc('clause', `${c.versionKey}/${c.ref}`, c.title, join(c.ref, c.summary), scope(dictOf(c.versionKey)), {
            ref: c.ref,
            version: c.versionKey,
          }),
        );
      },
    },
    requirement: {
      load: async (build) => {
        const { inLatest, dictOf, scope } = await latestDictionaries(build);
        return (await build.prisma.frameworkObligation.findMany(inLatest)).map((o) =>
          doc('requirement', `${o.versionKey}/${o.id}`, o.title, join(o.id, o.description, o.actor), scope(dictOf(o.versionKey)), {
            obligationId: o.id,
            actor: o.actor,
            clauseRef: o.clauseRef,
            version: o.versionKey,
          }),
        );
      },
    },
    question: {
      load: async (build) => {
        const { inLatest, dictOf, scope } = await latestDictionaries(build);
        return (await build.prisma.frameworkQuestion.findMany(inLatest)).map((q) =>
          doc(
            'question',
            `${q.versionKey}/${q.id}`,
            q.text,
            join(q.id, q.controlId),
            { ...scope(dictOf(q.versionKey)), type: q.answerType, control: [q.controlId] },
            { questionId: q.id, version: q.versionKey },
          ),
        );
      },
    },
  },
} satisfies RailSearch;
