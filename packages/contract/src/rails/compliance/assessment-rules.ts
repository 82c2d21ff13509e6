import { type QUESTION_KINDS, REQUIREMENT_STATUSES, YES_NO } from './assessment-work.ts';

/**
 * The rules of an assessment's answers, shared by the server and the SDK's mock so that both
 * answer alike: which questions are required given the answers (`requiredWhen`), what counts as
 * answered, the stages' progress and completion, the check of an answer against its question's
 * kind, and a gap analysis's scores and gaps. Pure functions over plain data.
 */

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

/** A refusal of an answer: the field it names, the issue word and the message. */
export interface AnswerProblem {
  field: string;
  issue: 'invalid_value' | 'missing';
  message: string;
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
 * What is wrong with an answer for its question's kind (the field, for a 422), or undefined when it
 * fits. An evidence question needs evidence; a requirement other than compliant a justification.
 */
export function answerProblem(
  q: QuestionDef,
  body: { value?: unknown; notes?: string; evidenceIds?: string[] },
): AnswerProblem | undefined {
  const v = body.value;
  const must = (what: string): AnswerProblem => ({
    field: 'value',
    issue: 'invalid_value',
    message: `Question ${q.key} is a ${q.kind} question: the value must be ${what}.`,
  });
  switch (q.kind) {
    case 'yes_no':
      return typeof v === 'string' && (YES_NO as readonly string[]).includes(v) ? undefined : must(YES_NO.join(', '));
    case 'text':
      return typeof v === 'string' && v.trim() !== '' ? undefined : must('a non-empty text');
    case 'scale':
      return typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 5 ? undefined : must('an integer from 1 to 5');
    case 'choice': {
      const values = (q.options ?? []).map((o) => o.value);
      return typeof v === 'string' && values.includes(v) ? undefined : must(`one of ${values.join(', ')}`);
    }
    case 'evidence':
      if (!body.evidenceIds?.length) {
        return {
          field: 'evidenceIds',
          issue: 'missing',
          message: `Question ${q.key} asks for evidence: attach at least one evidence record.`,
        };
      }
      return v === undefined || typeof v === 'string' ? undefined : must('a text note or absent');
    case 'requirement':
      if (typeof v !== 'string' || !(REQUIREMENT_STATUSES as readonly string[]).includes(v)) return must(REQUIREMENT_STATUSES.join(', '));
      return v !== 'compliant' && !body.notes?.trim()
        ? { field: 'notes', issue: 'missing', message: `A requirement assessed as ${v} needs a justification in notes.` }
        : undefined;
  }
}

/** The key of a control's requirement question in a gap analysis. */
export const requirementKey = (control: string) => `req.${control}`;

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
