import { doc, join, type RailSearch } from '../../search/sources.ts';
import { stockCatalogue } from './service.ts';

/** The stock workflows' search documents, read from the process's workflow file. */
export const workflowsRegistrySearch = {
  content: {
    workflow: {
      load: async () =>
        stockCatalogue().catalogue.workflows.map((w) =>
          doc(
            'workflow',
            w.id,
            w.title,
            join(
              w.description,
              w.steps.map((s) => s.title),
            ),
            { framework: w.frameworks, category: w.category },
            {
              stakeholders: w.stakeholders,
            },
          ),
        ),
      files: () => stockCatalogue().hash,
    },
  },
} satisfies RailSearch;
