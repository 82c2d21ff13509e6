import { doc, join, type RailSearch } from '../../search/sources.ts';
import { profileCatalogue } from './service.ts';

/** The industry profiles' search documents, read from the process's profile file. */
export const profilesSearch = {
  content: {
    profile: {
      load: async () =>
        profileCatalogue().profiles.map((p) =>
          doc(
            'profile',
            p.id,
            p.title,
            join(
              p.description,
              p.frameworks.map((f) => f.why),
            ),
            { framework: [...new Set(p.frameworks.map((f) => f.id))].sort() },
          ),
        ),
      files: () => profileCatalogue().version,
    },
  },
} satisfies RailSearch;
