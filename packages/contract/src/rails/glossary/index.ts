import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { get } from '../../platform/declare.ts';
import { commonErrorResponses } from '../../platform/errors.ts';
import { meta } from '../../platform/meta.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';

const c = initContract();

const read = meta({ auth: 'tenant', group: 'glossary', permission: 'frameworks:read', mutating: false });

/** `<dictionary>:<term>`: the dictionary the term is defined in, then the term in kebab case. */
export const GlossaryTermId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}:[a-z0-9][a-z0-9-]{0,95}$/)
  .meta({ description: 'Id of a glossary term: `<dictionary>:<term>`.', examples: ['gdpr:personal-data'] });

const TermLink = z.object({
  term: z.string().meta({ description: 'Id of the linked term.', examples: ['uk-gdpr:personal-data'] }),
  label: z.string().meta({ description: 'The linked term as written in its dictionary.', examples: ['Personal data'] }),
  dictionary: z.string().meta({ description: 'Dictionary of the linked term.', examples: ['uk-gdpr'] }),
  relation: z
    .enum(['equivalent', 'broader', 'narrower', 'related'])
    .meta({ description: 'What the linked term is to this one: the same concept, a wider one, a narrower one, or related.' }),
  origin: z
    .enum(['authored', 'same-name'])
    .meta({ description: '`authored`: stated in the content; `same-name`: the two dictionaries use the same name or synonym.' }),
});

export const GlossaryTerm = z
  .object({
    object: z.literal('svc.glossary.term').meta({ description: 'Type of the object, constant for the schema.' }),
    id: GlossaryTermId,
    term: z.string().meta({ description: 'The term as the dictionary names it.' }),
    definition: z.string().meta({ description: "Plain-language definition written for this product (not the source's text)." }),
    dictionary: z.string().meta({ description: 'Id of the framework dictionary the term comes from (`gdpr`).' }),
    clause: z
      .object({
        ref: z.string().meta({ description: 'Reference of the clause that defines or uses the term (`art-4-1`).' }),
        title: z.string().nullable().meta({ description: "Title of that clause in the dictionary's latest version." }),
      })
      .nullable()
      .meta({ description: 'Where the dictionary defines the term; null when it has no one defining clause.' }),
    synonyms: z.array(z.string()).meta({ description: 'Other names of the term in the same dictionary or in common use.' }),
    related: z
      .array(TermLink)
      .meta({ description: 'Edges to the same or related terms, mostly in other dictionaries, ordered by dictionary and term.' }),
  })
  .meta({
    id: 'GlossaryTerm',
    examples: [
      {
        object: 'svc.glossary.term',
        id: 'eu-ai-act:deployer',
        term: 'Deployer',
        definition: 'Anyone who uses an AI system under their own authority in a professional activity.',
        dictionary: 'eu-ai-act',
        clause: { ref: 'art-3-4', title: 'Definition of deployer' },
        synonyms: ['user of an AI system'],
        related: [{ term: 'nist-ai-rmf:ai-actor', label: 'AI actor', dictionary: 'nist-ai-rmf', relation: 'broader', origin: 'authored' }],
      },
    ],
  });

export const glossaryRouter = c.router(
  {
    list: get(
      '/v1/glossary',
      {
        query: PaginationQuery.extend({
          dictionary: z
            .string()
            .regex(/^[a-z0-9][a-z0-9-]{1,63}$/)
            .optional()
            .meta({ description: 'Only terms of this dictionary (`gdpr`).', examples: ['eu-ai-act'] }),
          q: z
            .string()
            .min(1)
            .max(200)
            .optional()
            .meta({
              description: 'Text search: terms whose name, synonyms or definition contain every word given (case and accents ignored).',
              examples: ['personal data'],
            }),
        }),
      },
      listOf(GlossaryTerm),
      read,
    ).doc(
      'List regulatory terms',
      "The glossary of every framework dictionary the service ships: each term with a definition in plain language, the clause that defines it and its edges to the same or related terms in other dictionaries (the AI Act's deployer and ISO/IEC 42001's AI user, say). Reference data, the same for every tenant, read with any API key (`frameworks:read`). Alphabetical; filter by `dictionary`, search with `q`; paginated by `limit` and `cursor`.",
    ),
    get: get('/v1/glossary/:id', { pathParams: z.object({ id: GlossaryTermId }) }, GlossaryTerm, read).doc(
      'Get one regulatory term',
      'Returns one glossary term by its id (`gdpr:personal-data`) with all its edges. 404 `not_found` for an unknown id.',
    ),
  },
  { commonResponses: commonErrorResponses },
);
