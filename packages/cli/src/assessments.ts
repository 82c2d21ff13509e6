/**
 * `svc assessments questions|answer|clear|submit|return|approve|results`: the work inside an
 * assessment, through the SDK. `list`, `create` and `get` stay in main.ts.
 */
import type { SvcClient } from '@svc/sdk';
import { UsageError } from './help.ts';
import { print as printOut, table } from './output.ts';

export const ASSESSMENT_WORK = ['questions', 'answer', 'clear', 'submit', 'return', 'approve', 'results'] as const;

export interface AssessmentWorkOptions {
  json: boolean;
  stage?: string | undefined;
  unanswered?: boolean | undefined;
  notes?: string | undefined;
  evidence?: string | undefined;
  comment?: string[] | undefined;
  /** Records the route about to be called, for the hints of a failure. */
  calling: (method: string, path: string) => void;
}

type Question = Awaited<ReturnType<SvcClient['compliance']['assessments']['question']>>;
type AnswerBody = Parameters<SvcClient['compliance']['assessments']['answer']>[0]['body'];

const BASE = '/v1/compliance/assessments';

function need(value: string | undefined, what: string): string {
  if (value === undefined || value === '') throw new UsageError(`missing ${what}`);
  return value;
}

/** The answer of a question as one table cell: its value, else the evidence it attaches. */
function answerCell(q: Question): string {
  const a = q.answer;
  if (!a) return '';
  const evidence = a.evidenceIds.length ? `evidence ${a.evidenceIds.join(',')}` : '';
  const value = a.value === null ? '' : String(a.value);
  return [value, evidence].filter(Boolean).join('; ');
}

/**
 * The value as the question's kind wants it: an integer for a scale question (the API refuses
 * `"3"`), the text as given otherwise; absent for an evidence question given only evidence.
 */
export function parseValue(q: Pick<Question, 'key' | 'kind'>, raw: string | undefined): string | number | undefined {
  if (raw === undefined) {
    if (q.kind === 'evidence') return undefined;
    throw new UsageError(`missing VALUE: question ${q.key} is a ${q.kind} question`);
  }
  if (q.kind === 'scale') {
    if (!/^-?\d+$/.test(raw.trim())) throw new UsageError(`question ${q.key} is a scale question: VALUE must be an integer from 1 to 5`);
    return Number(raw.trim());
  }
  return raw;
}

/** `--comment key=text`, repeatable, into the return body's comments. */
export function parseComments(comments: string[] | undefined): { question: string; comment: string }[] {
  if (!comments?.length) throw new UsageError('missing --comment KEY=TEXT (one per question to change)');
  return comments.map((c) => {
    const i = c.indexOf('=');
    if (i < 1 || i === c.length - 1) throw new UsageError(`bad --comment ${c}: use KEY=TEXT`);
    return { question: c.slice(0, i).trim(), comment: c.slice(i + 1).trim() };
  });
}

function percent(n: number): string {
  return `${Math.round(n * 1000) / 10}%`;
}

export async function assessmentWork(svc: SvcClient, sub: string, args: string[], o: AssessmentWorkOptions): Promise<number> {
  const print = (value: unknown, human: () => string) => printOut(o.json, value, human);
  const asm = svc.compliance.assessments;
  const id = need(args[0], 'assessment ID');
  const p = encodeURIComponent;
  switch (sub) {
    case 'questions': {
      o.calling('GET', `${BASE}/${p(id)}/questions`);
      const query = { limit: 100, ...(o.stage ? { stage: o.stage } : {}), ...(o.unanswered ? { answered: 'false' as const } : {}) };
      const rows: Question[] = [];
      for await (const q of svc.paginate(asm.questions, { params: { id }, query })) rows.push(q);
      print(rows, () =>
        table(
          rows.map((q) => ({ key: q.key, stage: q.stage, kind: q.kind, required: q.required ? 'yes' : 'no', answer: answerCell(q) })),
          ['key', 'stage', 'kind', 'required', 'answer'],
        ),
      );
      return 0;
    }
    case 'answer': {
      const key = need(args[1], 'question KEY');
      o.calling('GET', `${BASE}/${p(id)}/questions/${p(key)}`);
      const question = await asm.question({ params: { id, key } });
      const evidenceIds = (o.evidence ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const value = parseValue(question, args[2]);
      const body = {
        ...(value !== undefined ? { value } : {}),
        ...(o.notes ? { notes: o.notes } : {}),
        ...(evidenceIds.length ? { evidenceIds } : {}),
      } as AnswerBody;
      o.calling('PUT', `${BASE}/${p(id)}/questions/${p(key)}/answer`);
      const answered = await asm.answer({ params: { id, key }, body });
      print(answered, () => `answered ${key} (version ${answered.answer?.version}): ${answerCell(answered)}`);
      return 0;
    }
    case 'clear': {
      const key = need(args[1], 'question KEY');
      o.calling('DELETE', `${BASE}/${p(id)}/questions/${p(key)}/answer`);
      const cleared = await asm.clearAnswer({ params: { id, key } });
      print(cleared, () => `cleared the answer to ${key}`);
      return 0;
    }
    case 'submit': {
      o.calling('POST', `${BASE}/${p(id)}/submit`);
      const done = await asm.submit({ params: { id }, body: {} });
      print(done, () => `${done.id} is ${done.status}`);
      return 0;
    }
    case 'return': {
      const comments = parseComments(o.comment);
      o.calling('POST', `${BASE}/${p(id)}/return`);
      const done = await asm.send_back({ params: { id }, body: { comments } });
      print(done, () => `${done.id} is ${done.status}: ${comments.length} comment(s) for its authors`);
      return 0;
    }
    case 'approve': {
      o.calling('POST', `${BASE}/${p(id)}/approve`);
      const done = await asm.approve({ params: { id } });
      print(done, () => `${done.id} is ${done.status} by ${done.approvedBy}; answers hash ${done.answersHash}`);
      return 0;
    }
    case 'results': {
      o.calling('GET', `${BASE}/${p(id)}/results`);
      const r = await asm.results({ params: { id } });
      print(r, () =>
        [
          `${r.assessmentId} (${r.type}, ${r.status}): completion ${percent(r.completion)}${r.score === null ? '' : `, score ${percent(r.score)}`}`,
          '',
          table(
            r.stages.map((s) => ({ ...s, completion: percent(s.completion) })),
            ['key', 'title', 'required', 'answered', 'completion'],
          ),
          '',
          `open questions: ${r.open.length}`,
          ...(r.open.length ? [table(r.open, ['question', 'stage', 'text'])] : []),
          ...(r.type === 'gap-analysis'
            ? [
                '',
                `gaps: ${r.gaps.length}`,
                ...(r.gaps.length
                  ? [
                      table(
                        r.gaps.map((g) => ({ ...g, missing: g.missing.join('; ') })),
                        ['control', 'title', 'status', 'missing'],
                      ),
                    ]
                  : []),
              ]
            : []),
        ].join('\n'),
      );
      return 0;
    }
    default:
      throw new UsageError(`unknown assessments command ${sub}`);
  }
}
