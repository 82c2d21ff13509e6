import { doc, join, type RailSearch } from '../../search/sources.ts';

/**
 * The marketplace's search documents: every consultant of every tenant with its firm; each carries
 * its owner and whether it is listed, and a search shows only the listed ones and the caller's own.
 */
export const specialistsSearch = {
  marketplace: {
    specialist: {
      load: async (prisma) => {
        const [consultants, firms] = await Promise.all([
          prisma.specialistConsultant.findMany({ orderBy: { id: 'asc' } }),
          prisma.specialistFirm.findMany({ orderBy: { id: 'asc' } }),
        ]);
        const firmOf = new Map(firms.map((f) => [f.id, f]));
        return consultants.map((c) => {
          const firm = firmOf.get(c.firmId);
          return {
            ...doc(
              'specialist',
              c.id,
              c.name,
              join(c.headline, firm?.name, firm?.description, c.expertise),
              { expertise: c.expertise, jurisdiction: c.jurisdictions, firm: c.firmId },
              { firmName: firm?.name ?? null, headline: c.headline, listed: c.listed },
            ),
            owner: c.tenantId,
            listed: c.listed,
          };
        });
      },
    },
  },
} satisfies RailSearch;
