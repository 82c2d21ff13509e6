import { doc, join, ordered, type RailSearch } from '../../search/sources.ts';

/** The stakeholders' search documents: the tenant's people. */
export const stakeholdersSearch = {
  tenant: {
    person: {
      prefix: 'usr',
      load: async (db, where) =>
        (await db.stakeholderUser.findMany(ordered(where))).map((u) =>
          doc('person', u.id, u.name, join(u.email), { status: u.status }, { email: u.email }),
        ),
    },
  },
} satisfies RailSearch;
