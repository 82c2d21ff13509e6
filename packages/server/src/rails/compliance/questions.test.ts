import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import {
  type AnswerState,
  answersHash,
  checkAnswer,
  gapResults,
  isRequired,
  openQuestions,
  progress,
  type QuestionDef,
  type QuestionSet,
  questionsFromControls,
} from './questions.ts';

const q = (key: string, stage: string, kind: QuestionDef['kind'], extra: Partial<QuestionDef> = {}): QuestionDef => ({
  key,
  stage,
  text: `Question ${key}?`,
  kind,
  options:
    kind === 'choice'
      ? [
          { value: 'a', label: 'A' },
          { value: 'b', label: 'B' },
        ]
      : null,
  required: true,
  requiredWhen: null,
  control: null,
  source: { framework: 'x', clause: 'art-1', citation: 'Art. 1' },
  guidance: null,
  ...extra,
});
const ans = (value: string | number | null, evidenceIds: string[] = [], notes: string | null = null): AnswerState => ({
  value,
  notes,
  evidenceIds,
});

const SET: QuestionSet = {
  stages: [
    { key: 's1', title: 'One', citation: 'Art. 1(a)' },
    { key: 's2', title: 'Two', citation: 'Art. 1(b)' },
  ],
  questions: [
    q('route', 's1', 'choice'),
    q('text', 's1', 'text'),
    q('only-b', 's2', 'yes_no', { requiredWhen: { question: 'route', equals: 'b' } }),
    q('proof', 's2', 'evidence'),
    q('optional', 's2', 'scale', { required: false }),
  ],
};

const refused = (f: () => unknown): { field?: string; issue?: string } => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return (err as ApiError).details?.[0] ?? {};
  }
  throw new Error('expected a refusal');
};

describe('assessment questions: required, progress, answers', () => {
  it('a conditional question is required only when the other answer has the given value', () => {
    const only = SET.questions[2] as QuestionDef;
    expect(isRequired(only, new Map())).toBe(false);
    expect(isRequired(only, new Map([['route', ans('a')]]))).toBe(false);
    expect(isRequired(only, new Map([['route', ans('b')]]))).toBe(true);
  });

  it('completion is the share of required questions answered; stages follow their answers', () => {
    expect(progress(SET, new Map()).completion).toBe(0);
    expect(progress(SET, new Map()).stages.map((s) => [s.key, s.status, s.required])).toEqual([
      ['s1', 'pending', 2],
      ['s2', 'pending', 1],
    ]);
    const some = new Map([['route', ans('b')]]);
    const p = progress(SET, some);
    // route b makes `only-b` required: 1 of 4 answered.
    expect(p.completion).toBe(0.25);
    expect(p.stages.map((s) => [s.status, s.answered, s.required])).toEqual([
      ['in_progress', 1, 2],
      ['pending', 0, 2],
    ]);
    // An evidence question counts once evidence is attached, whatever its note.
    const all = new Map([
      ['route', ans('a')],
      ['text', ans('x')],
      ['proof', ans(null, ['evd_1'])],
    ]);
    expect(progress(SET, all).completion).toBe(1);
    expect(progress(SET, all).stages.every((s) => s.status === 'completed')).toBe(true);
    expect(openQuestions(SET, new Map([['route', ans('b')]])).map((x) => x.key)).toEqual(['text', 'only-b', 'proof']);
  });

  it('checks a value against its kind and keeps what is stored', () => {
    expect(checkAnswer(q('y', 's', 'yes_no'), { value: 'not_applicable' })).toBe('not_applicable');
    expect(refused(() => checkAnswer(q('y', 's', 'yes_no'), { value: 'true' })).field).toBe('value');
    expect(checkAnswer(q('n', 's', 'scale'), { value: 5 })).toBe(5);
    for (const bad of [0, 6, 2.5, '3'])
      expect(refused(() => checkAnswer(q('n', 's', 'scale'), { value: bad as number })).field).toBe('value');
    expect(refused(() => checkAnswer(q('c', 's', 'choice'), { value: 'z' })).field).toBe('value');
    expect(refused(() => checkAnswer(q('t', 's', 'text'), { value: '   ' })).field).toBe('value');
    expect(refused(() => checkAnswer(q('e', 's', 'evidence'), { value: 'note' }))).toMatchObject({
      field: 'evidenceIds',
      issue: 'missing',
    });
    expect(checkAnswer(q('e', 's', 'evidence'), { evidenceIds: ['evd_1'] })).toBeNull();
    expect(refused(() => checkAnswer(q('r', 's', 'requirement'), { value: 'partially_compliant' }))).toMatchObject({ field: 'notes' });
    expect(checkAnswer(q('r', 's', 'requirement'), { value: 'compliant' })).toBe('compliant');
  });
});

describe('gap analysis', () => {
  const controls = [
    { id: 'C-1', title: 'One', category: 'governance', clauseRefs: ['art-1'] },
    { id: 'C-2', title: 'Two', category: 'governance', clauseRefs: ['art-1', 'art-2'] },
    { id: 'C-3', title: 'Three', category: 'data quality', clauseRefs: ['art-2'] },
    { id: 'C-4', title: 'Four', category: 'data quality', clauseRefs: [] },
  ];
  const dictionary = [{ id: 'Q-1', text: 'Is it done?', controlId: 'C-2', clauseRef: 'art-2', answerType: 'yes_no' }];
  const set = questionsFromControls('fw', controls, dictionary);

  it('a stage per category, a required requirement per control, the dictionary questions optional beside it', () => {
    expect(set.stages.map((s) => s.key)).toEqual(['governance', 'data-quality']);
    expect(set.questions.map((x) => [x.key, x.kind, x.required])).toEqual([
      ['req.C-1', 'requirement', true],
      ['req.C-2', 'requirement', true],
      ['Q-1', 'yes_no', false],
      ['req.C-3', 'requirement', true],
      ['req.C-4', 'requirement', true],
    ]);
  });

  it('scores controls, clauses and the framework; names what each gap misses', () => {
    const answers = new Map([
      ['req.C-1', ans('compliant', ['evd_1'])],
      ['req.C-2', ans('partially_compliant', [], 'Half done.')],
      ['Q-1', ans('no')],
      ['req.C-3', ans('not_applicable', [], 'No data.')],
    ]);
    const r = gapResults(set, answers, new Map(controls.map((c) => [c.id, c])));
    // C-1 1, C-2 0.5; C-3 not applicable is left out, C-4 not assessed.
    expect(r.score).toBe(0.75);
    expect(r.framework).toMatchObject({ controls: 4, assessed: 3, compliant: 1, partiallyCompliant: 1, notApplicable: 1, nonCompliant: 0 });
    expect(r.clauses).toEqual([
      { clause: 'art-1', score: 0.75, controls: 2 },
      { clause: 'art-2', score: 0.5, controls: 2 },
    ]);
    expect(r.gaps).toEqual([
      {
        control: 'C-2',
        title: 'Two',
        status: 'partially_compliant',
        missing: ['Q-1: answered no', 'evidence', 'justification: Half done.'],
      },
      { control: 'C-4', title: 'Four', status: null, missing: ['requirement not assessed'] },
    ]);
  });

  it('the frozen hash changes with an answer, a note or an evidence record’s own hash, not with order', () => {
    const a = new Map([
      ['x', ans('yes', ['evd_2', 'evd_1'])],
      ['y', ans('text')],
    ]);
    const sha = new Map([
      ['evd_1', 'aa'],
      ['evd_2', 'bb'],
    ]);
    const h = answersHash(a, sha);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(answersHash(new Map([...a].reverse()), sha)).toBe(h);
    expect(answersHash(new Map([...a, ['y', ans('text', [], 'note')]]), sha)).not.toBe(h);
    expect(answersHash(a, new Map([...sha, ['evd_1', 'cc']]))).not.toBe(h);
    expect(answersHash(new Map([...a, ['y', ans('other')]]), sha)).not.toBe(h);
  });
});
