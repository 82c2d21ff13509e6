/**
 * The questions of an assessment and what follows from its answers, as pure functions: the
 * question set drawn at creation (from the recipe of the type and the pinned dictionary, or from a
 * framework's controls for a gap analysis), which questions are required given the answers, the
 * stages' progress, the check of an answer against its question's kind, the gap analysis's
 * scores and gaps, and the hash that freezes an approved assessment.
 */
import { createHash } from 'node:crypto';
import { QUESTION_KINDS, REQUIREMENT_STATUSES, YES_NO } from '@svc/contract';
import { ApiError, invalid } from '../../errors.ts';
import type { Recipe } from './recipes.ts';

export type QuestionKind = (typeof QUESTION_KINDS)[number];
export type RequirementStatus = (typeof REQUIREMENT_STATUSES)[number];

/** A question as frozen in the assessment's `questions` column. */
export interface QuestionDef {
  key: string;
  stage: string;
  text: string;
  kind: QuestionKind;
  options: { value: string; label: string }[] | null;
  required: boolean;
  requiredWhen: { question: string; equals: string } | null;
  control: string | null;
  source: { framework: string; clause: string | null; citation: string };
  guidance: string | null;
}

export interface StageDef {
  key: string;
  title: string;
  citation: string | null;
}

/** The stored question set: stages in order and every question. */
export interface QuestionSet {
  stages: StageDef[];
  questions: QuestionDef[];
}

export interface DictionaryQuestion {
  id: string;
  text: string;
  controlId: string;
  clauseRef: string | null;
  answerType: string;
}
export interface DictionaryControl {
  id: string;
  title: string;
  category: string;
  clauseRefs: string[];
}

/** The current answer of a question, as far as progress and results need it. */
export interface AnswerState {
  value: string | number | null;
  notes: string | null;
  evidenceIds: string[];
}

const kindOf = (answerType: string): QuestionKind =>
  (QUESTION_KINDS as readonly string[]).includes(answerType) ? (answerType as QuestionKind) : 'text';

/** The key of a control's requirement question in a gap analysis. */
export const requirementKey = (control: string) => `req.${control}`;

/** A recipe's questions, with the pinned dictionary's questions for the clauses a stage pulls in. */
export function questionsFromRecipe(
  recipe: Recipe,
  dictionary: DictionaryQuestion[],
  clauseTitles: ReadonlyMap<string, string>,
): QuestionSet {
  const questions: QuestionDef[] = [];
  for (const stage of recipe.stages) {
    for (const q of stage.questions) {
      questions.push({
        key: q.key,
        stage: stage.key,
        text: q.text,
        kind: q.kind,
        options: q.options ?? null,
        required: q.required,
        requiredWhen: q.requiredWhen ?? null,
        control: null,
        source: q.source,
        guidance: q.guidance ?? null,
      });
    }
    const pulled = new Set(stage.dictionaryClauses ?? []);
    for (const d of dictionary) {
      if (!d.clauseRef || !pulled.has(d.clauseRef) || questions.some((q) => q.key === d.id)) continue;
      questions.push({
        key: d.id,
        stage: stage.key,
        text: d.text,
        kind: kindOf(d.answerType),
        options: null,
        required: true,
        requiredWhen: null,
        control: d.controlId,
        source: { framework: recipe.framework, clause: d.clauseRef, citation: clauseTitles.get(d.clauseRef) ?? d.clauseRef },
        guidance: null,
      });
    }
  }
  return { stages: recipe.stages.map((s) => ({ key: s.key, title: s.title, citation: s.citation })), questions };
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'controls';

/**
 * A gap analysis of one framework: a stage per control category (in the order the controls come),
 * per control a required requirement question and, optional beside it, the dictionary's questions
 * for that control (a `no` among them is named in the control's gap).
 */
export function questionsFromControls(framework: string, controls: DictionaryControl[], dictionary: DictionaryQuestion[]): QuestionSet {
  const stages: StageDef[] = [];
  const questions: QuestionDef[] = [];
  const byControl = new Map<string, DictionaryQuestion[]>();
  for (const d of dictionary) byControl.set(d.controlId, [...(byControl.get(d.controlId) ?? []), d]);
  for (const c of controls) {
    const stage = slug(c.category);
    if (!stages.some((s) => s.key === stage))
      stages.push({ key: stage, title: c.category.charAt(0).toUpperCase() + c.category.slice(1), citation: null });
    questions.push({
      key: requirementKey(c.id),
      stage,
      text: `${c.id} ${c.title}: is the requirement met?`,
      kind: 'requirement',
      options: null,
      required: true,
      requiredWhen: null,
      control: c.id,
      source: { framework, clause: c.clauseRefs[0] ?? null, citation: `${c.id} ${c.title}` },
      guidance: 'Compliant, partially compliant, non-compliant or not applicable; justify any status other than compliant in the notes.',
    });
    for (const d of byControl.get(c.id) ?? []) {
      questions.push({
        key: d.id,
        stage,
        text: d.text,
        kind: kindOf(d.answerType),
        options: null,
        required: false,
        requiredWhen: null,
        control: c.id,
        source: { framework, clause: d.clauseRef, citation: d.clauseRef ?? c.id },
        guidance: null,
      });
    }
  }
  return { stages, questions };
}

/** Whether a question is required given the answers so far (`requiredWhen` reads another answer). */
export function isRequired(q: QuestionDef, answers: ReadonlyMap<string, AnswerState>): boolean {
  if (!q.required) return false;
  if (!q.requiredWhen) return true;
  return answers.get(q.requiredWhen.question)?.value === q.requiredWhen.equals;
}

/** Whether a question counts as answered: a value, or for an evidence question evidence attached. */
export function isAnswered(q: QuestionDef, a: AnswerState | undefined): boolean {
  if (!a) return false;
  if (q.kind === 'evidence') return a.evidenceIds.length > 0;
  return a.value !== null;
}

export interface StageProgress {
  key: string;
  title: string;
  citation: string | null;
  status: 'pending' | 'in_progress' | 'completed';
  questions: number;
  required: number;
  answered: number;
  completion: number;
}

const ratio = (n: number, d: number) => (d === 0 ? 1 : Math.round((n / d) * 10000) / 10000);

/** Each stage's progress and the assessment's completion: the share of required questions answered. */
export function progress(set: QuestionSet, answers: ReadonlyMap<string, AnswerState>): { stages: StageProgress[]; completion: number } {
  let required = 0;
  let answered = 0;
  const stages = set.stages.map((s) => {
    const qs = set.questions.filter((q) => q.stage === s.key);
    const req = qs.filter((q) => isRequired(q, answers));
    const done = req.filter((q) => isAnswered(q, answers.get(q.key))).length;
    const any = qs.some((q) => isAnswered(q, answers.get(q.key)));
    required += req.length;
    answered += done;
    const status: StageProgress['status'] = done === req.length && (req.length > 0 || any) ? 'completed' : any ? 'in_progress' : 'pending';
    return { ...s, status, questions: qs.length, required: req.length, answered: done, completion: ratio(done, req.length) };
  });
  return { stages, completion: required === 0 ? 0 : ratio(answered, required) };
}

/** Required questions without an answer. */
export function openQuestions(set: QuestionSet, answers: ReadonlyMap<string, AnswerState>): QuestionDef[] {
  return set.questions.filter((q) => isRequired(q, answers) && !isAnswered(q, answers.get(q.key)));
}

/**
 * The answer checked against its question's kind (422 naming the field otherwise). Returns the
 * value to store (`null` for an evidence question answered without a note).
 */
export function checkAnswer(
  q: QuestionDef,
  body: { value?: string | number; notes?: string; evidenceIds?: string[] },
): string | number | null {
  const v = body.value;
  const expect = (what: string): never => {
    throw invalid('value', `Question ${q.key} is a ${q.kind} question: the value must be ${what}.`);
  };
  switch (q.kind) {
    case 'yes_no':
      if (typeof v !== 'string' || !(YES_NO as readonly string[]).includes(v)) expect(YES_NO.join(', '));
      return v as string;
    case 'text':
      if (typeof v !== 'string' || v.trim().length === 0) expect('a non-empty text');
      return v as string;
    case 'scale':
      if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 5) expect('an integer from 1 to 5');
      return v as number;
    case 'choice': {
      const values = (q.options ?? []).map((o) => o.value);
      if (typeof v !== 'string' || !values.includes(v)) expect(`one of ${values.join(', ')}`);
      return v as string;
    }
    case 'evidence':
      if (!body.evidenceIds || body.evidenceIds.length === 0) {
        throw invalid('evidenceIds', `Question ${q.key} asks for evidence: attach at least one evidence record.`, 'missing');
      }
      if (v !== undefined && typeof v !== 'string') expect('a text note or absent');
      return v ?? null;
    case 'requirement':
      if (typeof v !== 'string' || !(REQUIREMENT_STATUSES as readonly string[]).includes(v)) expect(REQUIREMENT_STATUSES.join(', '));
      if (v !== 'compliant' && !body.notes?.trim()) {
        throw invalid('notes', `A requirement assessed as ${v} needs a justification in notes.`, 'missing');
      }
      return v as string;
  }
}

// ---------------------------------------------------------------- gap-analysis results

const SCORES: Record<RequirementStatus, number | null> = {
  compliant: 1,
  partially_compliant: 0.5,
  non_compliant: 0,
  not_applicable: null,
};

const mean = (xs: number[]) => (xs.length === 0 ? null : Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10000) / 10000);

export interface ControlResult {
  control: string;
  title: string;
  status: RequirementStatus | null;
  score: number | null;
  clauses: string[];
  evidenceIds: string[];
}

export interface GapResults {
  score: number | null;
  framework: {
    score: number | null;
    controls: number;
    assessed: number;
    compliant: number;
    partiallyCompliant: number;
    nonCompliant: number;
    notApplicable: number;
  };
  controls: ControlResult[];
  clauses: { clause: string; score: number | null; controls: number }[];
  gaps: { control: string; title: string; status: RequirementStatus | null; missing: string[] }[];
}

/**
 * A gap analysis's scores and gaps. A control's gap lists what is missing: its own assessment when
 * none is given, each supporting question answered `no` or left unanswered, evidence when the
 * requirement cites none, and the justification the requirement gives for a partial status.
 */
export function gapResults(
  set: QuestionSet,
  answers: ReadonlyMap<string, AnswerState>,
  controls: ReadonlyMap<string, DictionaryControl>,
): GapResults {
  const results: ControlResult[] = [];
  const gaps: GapResults['gaps'] = [];
  for (const q of set.questions) {
    if (q.kind !== 'requirement' || !q.control) continue;
    const a = answers.get(q.key);
    const status = (a?.value ?? null) as RequirementStatus | null;
    const c = controls.get(q.control);
    const title = c?.title ?? q.control;
    results.push({
      control: q.control,
      title,
      status,
      score: status ? SCORES[status] : null,
      clauses: c?.clauseRefs ?? [],
      evidenceIds: a?.evidenceIds ?? [],
    });
    if (status === 'compliant' || status === 'not_applicable') continue;
    const missing: string[] = [];
    if (!status) missing.push('requirement not assessed');
    for (const s of set.questions) {
      if (s.control !== q.control || s.kind === 'requirement') continue;
      const sa = answers.get(s.key);
      if (!isAnswered(s, sa)) missing.push(`${s.key}: not answered`);
      else if (sa?.value === 'no') missing.push(`${s.key}: answered no`);
    }
    if (status && (a?.evidenceIds.length ?? 0) === 0) missing.push('evidence');
    if (status && a?.notes) missing.push(`justification: ${a.notes.slice(0, 200)}`);
    gaps.push({ control: q.control, title, status, missing });
  }
  const scored = results.filter((r) => r.score !== null).map((r) => r.score as number);
  const clauseScores = new Map<string, { scores: number[]; controls: number }>();
  for (const r of results) {
    for (const clause of r.clauses) {
      const e = clauseScores.get(clause) ?? { scores: [], controls: 0 };
      e.controls++;
      if (r.score !== null) e.scores.push(r.score);
      clauseScores.set(clause, e);
    }
  }
  const count = (s: RequirementStatus) => results.filter((r) => r.status === s).length;
  return {
    score: mean(scored),
    framework: {
      score: mean(scored),
      controls: results.length,
      assessed: results.filter((r) => r.status !== null).length,
      compliant: count('compliant'),
      partiallyCompliant: count('partially_compliant'),
      nonCompliant: count('non_compliant'),
      notApplicable: count('not_applicable'),
    },
    controls: results,
    clauses: [...clauseScores].map(([clause, e]) => ({ clause, score: mean(e.scores), controls: e.controls })),
    gaps,
  };
}

// ---------------------------------------------------------------- freezing

/**
 * The hash an approval freezes: SHA-256 over the answers in key order, each with its value, notes
 * and evidence (id and the evidence record's own SHA-256, so that a swapped artefact shows).
 */
export function answersHash(answers: ReadonlyMap<string, AnswerState>, evidenceSha: ReadonlyMap<string, string | null>): string {
  const entries = [...answers]
    .filter(([, a]) => a.value !== null || a.evidenceIds.length > 0)
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0))
    .map(([key, a]) => ({
      key,
      value: a.value,
      notes: a.notes,
      evidence: [...a.evidenceIds].sort().map((id) => ({ id, sha256: evidenceSha.get(id) ?? null })),
    }));
  return createHash('sha256').update(JSON.stringify(entries)).digest('hex');
}

/** 409 for a change of an assessment whose answers are not open to change. */
export function frozen(id: string, status: string): ApiError {
  return new ApiError(
    'conflict',
    status === 'approved'
      ? `Assessment ${id} is approved and frozen; POST /v1/compliance/assessments/${id}/revisions starts a new revision.`
      : `Assessment ${id} is in review; its answers change only after it is returned.`,
    [{ field: 'status', issue: 'invalid_value', message: `current state: ${status}` }],
  );
}
