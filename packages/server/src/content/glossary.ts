import { z } from 'zod';

/** `<dictionary>:<term-in-kebab-case>`, e.g. `gdpr:personal-data`. */
export const TermId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}:[a-z0-9][a-z0-9-]{0,95}$/)
  .max(160);

export const TermRelation = z.enum(['equivalent', 'broader', 'narrower', 'related']);
export type TermRelation = z.infer<typeof TermRelation>;

/** The format of a glossary file in content/glossary: the defined terms of one dictionary. */
export const GlossaryContent = z
  .strictObject({
    dictionary: z.string().regex(/^[a-z0-9][a-z0-9-]{1,63}$/),
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    terms: z
      .array(
        z.strictObject({
          id: TermId,
          term: z.string().min(1).max(200),
          definition: z.string().min(20),
          clauseRef: z.string().min(1).max(64).nullable(),
          synonyms: z.array(z.string().min(1).max(200)),
          related: z.array(z.strictObject({ term: TermId, relation: TermRelation })),
        }),
      )
      .min(1),
  })
  .superRefine((g, ctx) => {
    const seen = new Set<string>();
    for (const [i, t] of g.terms.entries()) {
      if (!t.id.startsWith(`${g.dictionary}:`))
        ctx.addIssue({ code: 'custom', path: ['terms', i, 'id'], message: `term ${t.id} must start with "${g.dictionary}:"` });
      if (seen.has(t.id)) ctx.addIssue({ code: 'custom', path: ['terms', i, 'id'], message: `duplicate term ${t.id}` });
      seen.add(t.id);
      const targets = new Set<string>();
      for (const r of t.related) {
        if (r.term === t.id) ctx.addIssue({ code: 'custom', path: ['terms', i, 'related'], message: `term ${t.id} relates to itself` });
        if (targets.has(r.term))
          ctx.addIssue({ code: 'custom', path: ['terms', i, 'related'], message: `term ${t.id} links ${r.term} twice` });
        targets.add(r.term);
      }
    }
  });
export type GlossaryContent = z.infer<typeof GlossaryContent>;

/** The inverse of a relation, for the edge seen from the other end. */
export function inverseRelation(r: TermRelation): TermRelation {
  return r === 'broader' ? 'narrower' : r === 'narrower' ? 'broader' : r;
}

/** Lowercase, punctuation folded to spaces: "Personal Data" and "personal-data" match. */
export function normaliseTerm(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}
