import { z } from 'zod';

/** An edge end: a control id or a clause reference of the dictionary (`control:CSF-GV.OC-01`, `clause:art-33-1`). */
export const Endpoint = z.string().regex(/^(control|clause):\S{1,64}$/);

/** NIST OLIR relationship of the source requirement to the target (NISTIR 8278). */
export const Relationship = z.enum(['equal', 'subset', 'superset', 'intersect', 'not_related']);
export const Rationale = z.enum(['syntactic', 'semantic', 'functional']);

/** The format of a crosswalk file in content/crosswalks: edges from one dictionary to another. */
export const CrosswalkContent = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{1,63}--[a-z0-9][a-z0-9-]{1,80}$/),
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    from: z.string().regex(/^[a-z0-9][a-z0-9-]{1,63}$/),
    to: z.string().regex(/^[a-z0-9][a-z0-9-]{1,63}$/),
    source: z.strictObject({
      kind: z.enum(['official', 'authored']),
      title: z.string().min(1),
      url: z.url().nullable(),
      license: z.string().min(1),
    }),
    edges: z
      .array(
        z.strictObject({
          from: Endpoint,
          to: Endpoint,
          relationship: Relationship,
          rationale: Rationale,
          strength: z.int().min(0).max(10),
          note: z.string().min(20),
        }),
      )
      .min(1),
  })
  .superRefine((x, ctx) => {
    if (x.from === x.to) ctx.addIssue({ code: 'custom', message: 'a crosswalk joins two different dictionaries' });
    if (!x.id.startsWith(`${x.from}--${x.to}`))
      ctx.addIssue({ code: 'custom', path: ['id'], message: `id must start with "${x.from}--${x.to}"` });
    const seen = new Set<string>();
    for (const [i, e] of x.edges.entries()) {
      const k = `${e.from} ${e.to}`;
      if (seen.has(k)) ctx.addIssue({ code: 'custom', path: ['edges', i], message: `duplicate edge ${e.from} -> ${e.to}` });
      seen.add(k);
    }
  });
export type CrosswalkContent = z.infer<typeof CrosswalkContent>;

export function parseEndpoint(e: string): { kind: 'control' | 'clause'; ref: string } {
  const i = e.indexOf(':');
  return { kind: e.slice(0, i) as 'control' | 'clause', ref: e.slice(i + 1) };
}
