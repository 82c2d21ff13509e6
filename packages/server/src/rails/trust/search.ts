import { isoOrNull } from '../../platform/render.ts';
import { doc, join, ordered, type RailSearch } from '../../search/sources.ts';

/** The trust page's search documents: its certifications and sub-processors. */
export const trustSearch = {
  tenant: {
    certification: {
      prefix: 'crt',
      load: async (db, where) =>
        (await db.trustCertification.findMany(ordered(where))).map((c) =>
          doc('certification', c.id, c.name, join(c.issuer, c.scope), {}, { issuer: c.issuer, validUntil: isoOrNull(c.validUntil) }),
        ),
    },
    sub_processor: {
      prefix: 'sbp',
      load: async (db, where) =>
        (await db.trustSubProcessor.findMany(ordered(where))).map((s) =>
          doc('sub_processor', s.id, s.name, join(s.purpose, s.region), { jurisdiction: [s.region] }),
        ),
    },
  },
} satisfies RailSearch;
