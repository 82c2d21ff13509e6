/**
 * The assessment recipes: what each assessment type asks, as data (`content/assessments/recipes.json`).
 * A recipe gives the stages of its type in order and, per stage, the questions the law behind it
 * asks (each citing the provision it comes from), and may pull the questions of the pinned
 * dictionary version whose clause a stage covers (`dictionaryClauses`). A gap analysis has no recipe:
 * its stages and questions are the controls of the framework it assesses (questions.ts).
 */

import { ASSESSMENT_TYPE_IDS, QUESTION_KINDS } from '@svc/contract';
import { z } from 'zod';
import { dataFile } from '../../content/data-file.ts';
import { DictionaryDate } from '../../content/provision-dates.ts';

const Key = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'a lowercase slug');

const Source = z.strictObject({
  /** Dictionary id the clause is in (`eu-ai-act`). */
  framework: z.string().min(2),
  /** Clause ref in that dictionary (`art-27`). */
  clause: z.string().min(1),
  /** The provision as a reader cites it (`Art. 27(1)(a)`). */
  citation: z.string().min(3).max(120),
});

export const RecipeQuestion = z
  .strictObject({
    key: Key,
    text: z.string().min(10).max(600),
    kind: z.enum(QUESTION_KINDS).exclude(['requirement']),
    /** The values a `choice` question accepts. */
    options: z
      .array(z.strictObject({ value: Key, label: z.string().min(2).max(200) }))
      .min(2)
      .optional(),
    /** Required unless `false`; with `requiredWhen`, required only when the other question has that answer. */
    required: z.boolean().default(true),
    requiredWhen: z.strictObject({ question: Key, equals: z.string() }).optional(),
    source: Source,
    guidance: z.string().max(1000).optional(),
  })
  .refine((q) => (q.kind === 'choice') === (q.options !== undefined), {
    message: 'a choice question has options, and only a choice question has them',
  });

export const RecipeStage = z.strictObject({
  key: Key,
  title: z.string().min(3).max(200),
  /** The provision the stage covers (`Art. 27(1)(a)`). */
  citation: z.string().min(3).max(120),
  questions: z.array(RecipeQuestion),
  /** Clause refs of the recipe's dictionary whose questions (in the pinned version) this stage also asks. */
  dictionaryClauses: z.array(z.string().min(1)).optional(),
});

export const Recipe = z.strictObject({
  type: z.enum(ASSESSMENT_TYPE_IDS).exclude(['gap-analysis']),
  title: z.string().min(3).max(200),
  /** The dictionary whose version the assessment pins and whose clauses the questions cite. */
  framework: z.string().min(2),
  legalBasis: z.strictObject({
    citation: z.string().min(3).max(300),
    url: z.url(),
    /** Since when the provision applies: in the file the provision (`{ dictionary, clause }`), its dictionary's date once read. */
    since: DictionaryDate,
  }),
  /** Title of the document an approved assessment of this type renders (the FRIA, the DPIA), when it has one. */
  document: z.string().min(3).max(200).optional(),
  stages: z.array(RecipeStage).min(1),
});
export type Recipe = z.infer<typeof Recipe>;
export type RecipeQuestion = z.infer<typeof RecipeQuestion>;

export const RecipeFile = z
  .strictObject({
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    description: z.string(),
    recipes: z.array(Recipe),
  })
  .superRefine((file, ctx) => {
    const types = new Set<string>();
    for (const [i, r] of file.recipes.entries()) {
      if (types.has(r.type)) ctx.addIssue({ code: 'custom', path: ['recipes', i, 'type'], message: `${r.type} twice` });
      types.add(r.type);
      const keys = new Set<string>();
      const stages = new Set<string>();
      for (const [j, s] of r.stages.entries()) {
        if (stages.has(s.key)) ctx.addIssue({ code: 'custom', path: ['recipes', i, 'stages', j, 'key'], message: `stage ${s.key} twice` });
        stages.add(s.key);
        if (s.questions.length === 0 && !s.dictionaryClauses?.length) {
          ctx.addIssue({ code: 'custom', path: ['recipes', i, 'stages', j], message: 'a stage asks something' });
        }
        for (const [k, q] of s.questions.entries()) {
          const at = ['recipes', i, 'stages', j, 'questions', k];
          if (keys.has(q.key)) ctx.addIssue({ code: 'custom', path: [...at, 'key'], message: `question ${q.key} twice` });
          keys.add(q.key);
          if (q.requiredWhen && !keys.has(q.requiredWhen.question)) {
            ctx.addIssue({
              code: 'custom',
              path: [...at, 'requiredWhen'],
              message: `${q.requiredWhen.question} is not an earlier question`,
            });
          }
        }
      }
    }
    for (const t of ASSESSMENT_TYPE_IDS) {
      if (t !== 'gap-analysis' && !types.has(t)) ctx.addIssue({ code: 'custom', path: ['recipes'], message: `no recipe for ${t}` });
    }
  });
export type RecipeFile = z.infer<typeof RecipeFile>;

export const RECIPES = dataFile('assessments/recipes.json', RecipeFile);

export function recipeOf(type: string): Recipe | undefined {
  return RECIPES.current().recipes.find((r) => r.type === type);
}

/** Clause refs a recipe cites that its dictionary does not have (the content check reports them). */
export function unresolvedRecipeReferences(file: RecipeFile, clauses: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const problems: string[] = [];
  for (const r of file.recipes) {
    const own = clauses.get(r.framework);
    if (!own) {
      problems.push(`${r.type}: dictionary ${r.framework} is not shipped`);
      continue;
    }
    for (const s of r.stages) {
      for (const c of s.dictionaryClauses ?? []) if (!own.has(c)) problems.push(`${r.type}/${s.key}: clause ${c} is not in ${r.framework}`);
      for (const q of s.questions) {
        const dict = clauses.get(q.source.framework);
        if (!dict) problems.push(`${r.type}/${q.key}: dictionary ${q.source.framework} is not shipped`);
        else if (!dict.has(q.source.clause)) problems.push(`${r.type}/${q.key}: clause ${q.source.clause} is not in ${q.source.framework}`);
      }
    }
  }
  return problems;
}
