import { doc, join, ordered, type RailSearch } from '../../search/sources.ts';

/** The metadata labels' search documents. */
export const metadataSearch = {
  tenant: {
    label: {
      prefix: 'lbl',
      load: async (db, where) =>
        (await db.metadataLabel.findMany(ordered(where))).map((l) =>
          doc('label', l.id, l.value, join(l.key, l.resourceId), { type: l.resourceType, category: l.key }, { resourceId: l.resourceId }),
        ),
    },
  },
} satisfies RailSearch;
