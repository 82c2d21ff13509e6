/**
 * The question set of an assessment and what the server adds to the shared rules of its answers
 * (@svc/contract's assessment-rules.ts: required, progress, the check by kind, gap results): the
 * set drawn at creation from the recipe of the type and the pinned dictionary, or from a
 * framework's controls for a gap analysis; the answer check as a 422; the hash that freezes an
 * approved assessment.
 */
import { createHash } from 'node:crypto';
import {
  type AnswerState,
  answerProblem,
  type DictionaryControl,
  type DictionaryQuestion,
  QUESTION_KINDS,
  type QuestionDef,
  type QuestionKind,
  type QuestionSet,
  requirementKey,
  type StageDef,
} from '@svc/contract';
import { ApiError } from '../../errors.ts';
import type { Recipe } from './recipes.ts';

export {
  type AnswerState,
  type DictionaryControl,
  type DictionaryQuestion,
  type GapResults,
  gapResults,
  isAnswered,
  isRequired,
  openQuestions,
  progress,
  type QuestionDef,
  type QuestionSet,
  type RequirementStatus,
  requirementKey,
  type StageDef,
  type StageProgress,
} from '@svc/contract';

const kindOf = (answerType: string): QuestionKind =>
  (QUESTION_KINDS as readonly string[]).includes(answerType) ? (answerType as QuestionKind) : 'text';

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

/** The answer checked against its question's kind (422 naming the field otherwise); returns the value to store. */
export function checkAnswer(
  q: QuestionDef,
  body: { value?: string | number; notes?: string; evidenceIds?: string[] },
): string | number | null {
  const problem = answerProblem(q, body);
  if (problem) throw new ApiError('validation_failed', problem.message, [problem]);
  return body.value ?? null;
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
