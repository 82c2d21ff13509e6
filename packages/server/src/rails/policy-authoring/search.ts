import { doc, join, ordered, type RailSearch } from '../../search/sources.ts';

/** The policies' search documents. */
export const policyAuthoringSearch = {
  tenant: {
    policy: {
      prefix: 'pol',
      load: async (db, where) =>
        (await db.policy.findMany(ordered(where))).map((p) =>
          doc('policy', p.id, p.title, join(p.controlIds), { status: p.status, control: p.controlIds }, { ownerId: p.ownerId }),
        ),
    },
  },
} satisfies RailSearch;
