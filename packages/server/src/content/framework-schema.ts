import { z } from 'zod';

const Ref = z.string().min(1).max(64);

/**
 * A repealed provision stays in the versions after its repeal, so that the law can be read as of an
 * earlier day: `applicableUntil` is the first day it no longer applies (on or before its
 * `applicableFrom` when it never applied), `replacedBy` what took its place in the same version.
 */
const Repealable = {
  applicableUntil: z.iso.date().optional(),
  replacedBy: z.array(Ref).optional(),
};

/** The format of a framework dictionary file in content/frameworks. */
export const FrameworkContent = z
  .strictObject({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{1,63}$/),
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    title: z.string().min(1),
    shortTitle: z.string().min(1),
    kind: z.enum(['regulation', 'standard', 'framework']),
    publisher: z.string().min(1),
    jurisdiction: z.string().min(1),
    description: z.string().min(1),
    publishedAt: z.iso.date(),
    sourceUrl: z.url().nullable(),
    license: z.string().min(1),
    clauses: z
      .array(
        z.strictObject({
          ref: Ref,
          title: z.string().min(1),
          summary: z.string().min(1),
          parentRef: Ref.nullable(),
          /** Set where the clause applies from a date of its own (an amendment inserted it, say). */
          applicableFrom: z.iso.date().optional(),
          ...Repealable,
        }),
      )
      .min(1),
    controls: z.array(
      z.strictObject({
        id: z
          .string()
          .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/)
          .max(64),
        title: z.string().min(1),
        description: z.string().min(1),
        category: z.string().min(1),
        clauseRefs: z.array(Ref).min(1),
      }),
    ),
    questions: z.array(
      z.strictObject({
        id: Ref,
        text: z.string().min(1),
        controlId: Ref,
        clauseRef: Ref.nullable(),
        answerType: z.enum(['yes_no', 'text', 'scale', 'evidence']),
      }),
    ),
    obligations: z.array(
      z.strictObject({
        id: Ref,
        title: z.string().min(1),
        description: z.string().min(1),
        clauseRef: Ref,
        actor: z.string().min(1),
        applicableFrom: z.iso.date(),
        ...Repealable,
      }),
    ),
  })
  .superRefine((f, ctx) => {
    const clauses = new Set<string>();
    for (const c of f.clauses) {
      if (clauses.has(c.ref)) ctx.addIssue({ code: 'custom', message: `duplicate clause ${c.ref}` });
      if (c.parentRef && !clauses.has(c.parentRef))
        ctx.addIssue({ code: 'custom', message: `clause ${c.ref}: parent ${c.parentRef} must come first` });
      clauses.add(c.ref);
    }
    const controls = new Set<string>();
    for (const c of f.controls) {
      if (controls.has(c.id)) ctx.addIssue({ code: 'custom', message: `duplicate control ${c.id}` });
      controls.add(c.id);
      for (const r of c.clauseRefs) if (!clauses.has(r)) ctx.addIssue({ code: 'custom', message: `control ${c.id}: unknown clause ${r}` });
    }
    const questions = new Set<string>();
    for (const q of f.questions) {
      if (questions.has(q.id)) ctx.addIssue({ code: 'custom', message: `duplicate question ${q.id}` });
      questions.add(q.id);
      if (!controls.has(q.controlId)) ctx.addIssue({ code: 'custom', message: `question ${q.id}: unknown control ${q.controlId}` });
      if (q.clauseRef && !clauses.has(q.clauseRef))
        ctx.addIssue({ code: 'custom', message: `question ${q.id}: unknown clause ${q.clauseRef}` });
    }
    const obligations = new Set<string>();
    for (const o of f.obligations) {
      if (obligations.has(o.id)) ctx.addIssue({ code: 'custom', message: `duplicate obligation ${o.id}` });
      obligations.add(o.id);
      if (!clauses.has(o.clauseRef)) ctx.addIssue({ code: 'custom', message: `obligation ${o.id}: unknown clause ${o.clauseRef}` });
    }
  });
export type FrameworkContent = z.infer<typeof FrameworkContent>;

export function compareSemver(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/**
 * The dates from which a clause applies, as its obligations in force state them (repealed ones
 * aside): one date is the rule; none or several is an error for whoever needs the date.
 */
export function clauseDates(
  obligations: readonly { clauseRef: string; applicableFrom: string; applicableUntil?: string | null }[],
  clause: string,
): string[] {
  return [...new Set(obligations.filter((o) => o.clauseRef === clause && !o.applicableUntil).map((o) => o.applicableFrom))];
}
