import {
  type AnswerBody,
  AnswerBody as AnswerBodySchema,
  type AssessmentQuestion,
  assessments,
  permits,
  REQUIREMENT_STATUSES,
  ReturnAssessmentBody,
  type Role,
  SubmitAssessmentBody,
  YES_NO,
} from '@svc/contract';
import type { Express, NextFunction, Request, Response } from 'express';
import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import { serveResource, transitionsOf } from '../../kit.ts';
import { answerQuestion, assessmentStore, getQuestion, listQuestions, renderAssessment } from '../../rails/compliance/assessment-work.ts';
import type { Surface } from '../kit.ts';
import { webPerson } from './person.ts';

/**
 * The assessment pages of the tenant web application: the tenant's assessments, and one
 * assessment with its stages, its questions grouped by stage (answer, review comment, assignment),
 * a form per question of its kind, and the review steps (submit, return with comments, approve).
 * Every write goes through the same services as the API (answerQuestion, the kit's transitions),
 * acting as the signed-in user's person of the stakeholders rail: the four-eyes rule compares
 * that person with the people who answered. A refusal (422, 403, 409) is shown on the page with
 * the service's own message.
 */

/** What the pages need of a signed-in web user. */
export interface AssessmentPageUser {
  tenantId: string;
  userId: string;
  email: string;
  role: string;
}

export interface AssessmentPagesOptions {
  app: Express;
  db: Database;
  render: Surface['render'];
  renderError: Surface['renderError'];
  /** Redirects to the sign-in page (GET) or refuses (POST) without a session. */
  requireUser: (req: Request, res: Response, next: NextFunction) => void;
  /** The signed-in user of the request (set by the session middleware). */
  me: (res: Response) => AssessmentPageUser | undefined;
  newCorrelation: () => string;
}

type Question = z.infer<typeof AssessmentQuestion>;

const ASSESSMENT_ID = /^asm_[0-9A-Za-z]{1,60}$/;
const QUESTION_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/;
/** Pages of questions read for one assessment page (200 each): a gap analysis of a large framework fits. */
const QUESTION_PAGES = 10;
/** Above this many questions the return form takes comments in rows (the form parser accepts 100 fields). */
const INLINE_COMMENTS_MAX = 90;
const COMMENT_ROWS = 8;
const STATUS_WORDS: Record<string, string> = { draft: 'draft', in_progress: 'in progress', in_review: 'in review', approved: 'approved' };
const REQUIREMENT_LABELS: Record<string, string> = {
  compliant: 'Compliant',
  partially_compliant: 'Partially compliant',
  non_compliant: 'Non-compliant',
  not_applicable: 'Not applicable',
};
const YES_NO_LABELS: Record<string, string> = { yes: 'Yes', no: 'No', not_applicable: 'Not applicable' };

/** The values a radio question offers, as `{ value, label }`. */
function choicesOf(q: Question): { value: string; label: string }[] | null {
  if (q.kind === 'yes_no') return YES_NO.map((v) => ({ value: v, label: YES_NO_LABELS[v] as string }));
  if (q.kind === 'requirement') return REQUIREMENT_STATUSES.map((v) => ({ value: v, label: REQUIREMENT_LABELS[v] as string }));
  if (q.kind === 'choice') return q.options ?? [];
  return null;
}

/** The form's fields as the API's answer body (checked by the service against the question's kind). */
function answerFromForm(q: Question, form: Record<string, unknown>): z.infer<typeof AnswerBody> {
  const text = (name: string) => (typeof form[name] === 'string' ? (form[name] as string).trim() : '');
  const raw = text('value');
  const notes = text('notes');
  const evidenceIds = text('evidenceIds')
    .split(/[\s,;]+/)
    .filter(Boolean);
  let value: string | number | undefined = raw === '' ? undefined : raw;
  if (q.kind === 'scale' && raw !== '') value = /^-?\d+$/.test(raw) ? Number(raw) : raw;
  return {
    ...(value !== undefined ? { value } : {}),
    ...(notes ? { notes } : {}),
    ...(q.kind === 'evidence' || evidenceIds.length > 0 ? { evidenceIds } : {}),
  };
}

/** Zod issues in the words of the page. */
const issuesOf = (error: z.ZodError) => error.issues.map((i) => `${i.path.join('.') || 'form'}: ${i.message}`).join('; ');

export function registerAssessmentPages(opts: AssessmentPagesOptions): void {
  const { app, db, render, renderError, requireUser, me, newCorrelation } = opts;
  const prisma = db.prisma;
  // Built once: the same transition steps (guards, audit events, webhooks) as the API's routes.
  const transitions = transitionsOf(serveResource(db, assessments, assessmentStore));
  const transition = (verb: string) => {
    const run = transitions[verb];
    if (!run) throw new Error(`assessments have no transition ${verb}`);
    return run;
  };
  const submit = transition('submit');
  const sendBack = transition('send_back');
  const approve = transition('approve');

  const wrap =
    (fn: (req: Request, res: Response, u: AssessmentPageUser) => Promise<void>) =>
    (req: Request, res: Response, next: NextFunction): void => {
      fn(req, res, me(res) as AssessmentPageUser).catch(next);
    };

  const mayWrite = (u: AssessmentPageUser) => permits(u.role as Role, [], 'compliance:write');
  const mayApprove = (u: AssessmentPageUser) => permits(u.role as Role, [], 'compliance:approve');

  /** The assessment page, optionally with the refusal of the step that was tried (and its status). */
  async function showAssessment(
    req: Request,
    res: Response,
    u: AssessmentPageUser,
    id: string,
    outcome: { error?: ApiError | string; errorQuestion?: string; notice?: string; status?: number } = {},
  ): Promise<void> {
    const tdb = scopeToTenant(prisma, u.tenantId);
    const row = ASSESSMENT_ID.test(id) ? await tdb.assessment.findFirst({ where: { id } }) : null;
    if (!row) return renderError(req, res, 404, `This tenant has no assessment ${id}.`);
    const assessment = renderAssessment(row);
    const questions: Question[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < QUESTION_PAGES; i++) {
      const page = await listQuestions(prisma, u.tenantId, id, { limit: 200, ...(cursor ? { cursor } : {}) });
      questions.push(...(page.data as Question[]));
      if (!page.cursor) break;
      cursor = page.cursor;
    }
    const person = await webPerson(prisma, u);
    // The names of the people the page mentions (answers, comments, assignments, approval).
    const ids = new Set<string>();
    for (const q of questions) {
      if (q.answer) ids.add(q.answer.answeredBy);
      if (q.review) ids.add(q.review.by);
      if (q.assignment) ids.add(q.assignment.personId);
    }
    for (const p of [assessment.submittedBy, assessment.approvedBy]) if (p) ids.add(p);
    const people = await tdb.stakeholderUser.findMany({
      where: { id: { in: [...ids].filter((x) => x.startsWith('usr_')) } },
      select: { id: true, name: true },
    });
    const names = new Map(people.map((p) => [p.id, p.name]));
    const open = assessment.status === 'draft' || assessment.status === 'in_progress';
    const error = outcome.error;
    render(
      req,
      res,
      'assessment',
      {
        pageTitle: assessment.title ?? `${assessment.type} ${assessment.id}`,
        assessment,
        statusWord: STATUS_WORDS[assessment.status] ?? assessment.status,
        stages: assessment.stages.map((s) => ({ ...s, questions: questions.filter((q) => q.stage === s.key) })),
        questionCount: questions.length,
        person,
        canAnswer: Boolean(person) && open && mayWrite(u),
        canSubmit: Boolean(person) && assessment.status === 'in_progress' && mayWrite(u),
        canReview: Boolean(person) && assessment.status === 'in_review' && mayApprove(u),
        inlineComments: questions.length <= INLINE_COMMENTS_MAX,
        commentRows: Math.min(COMMENT_ROWS, questions.length),
        mayWrite: mayWrite(u),
        mayApprove: mayApprove(u),
        choicesOf,
        nameOf: (pid: string) => (names.has(pid) ? `${names.get(pid)} (${pid})` : pid),
        error: error === undefined ? undefined : typeof error === 'string' ? error : error.message,
        errorDetails: error instanceof ApiError ? (error.details ?? []).filter((d) => d.message || d.field) : [],
        errorQuestion: outcome.errorQuestion,
        notice: outcome.notice ?? (typeof req.query.done === 'string' ? doneNotice(req.query.done) : undefined),
        pct: (x: number) => `${Math.round(x * 100)} %`,
        when: (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—'),
      },
      outcome.status ?? 200,
    );
  }

  const doneNotice = (done: string) =>
    (
      ({
        answered: 'The answer is saved.',
        submitted: 'The assessment is submitted for review.',
        returned: 'The assessment is returned with your comments.',
        approved: 'The assessment is approved: its answers are frozen.',
      }) as Record<string, string>
    )[done];

  /**
   * Runs a write of the signed-in user's person: refuses (403 on the page) without a person or the
   * role's permission, shows the service's refusal (ApiError) on the assessment page with its status,
   * and otherwise redirects to the page (POST, redirect, GET).
   */
  const step = (
    permission: 'write' | 'approve',
    run: (
      req: Request,
      u: AssessmentPageUser,
      who: { tenantId: string; actor: string; correlationId: string; personId: string },
    ) => Promise<string>,
  ) =>
    wrap(async (req, res, u) => {
      const id = String(req.params.id);
      const key = typeof req.params.key === 'string' ? req.params.key : undefined;
      const allowed = permission === 'write' ? mayWrite(u) : mayApprove(u);
      if (!allowed) {
        const needs = permission === 'write' ? 'answer and submit' : 'return and approve';
        return showAssessment(req, res, u, id, {
          error: `Your role (${u.role}) may read assessments; people who ${needs} need ${permission === 'write' ? 'the editor, admin or owner' : 'the admin or owner'} role.`,
          status: 403,
        });
      }
      const person = await webPerson(prisma, u);
      if (!person) {
        return showAssessment(req, res, u, id, {
          error: `No active person with your email address (${u.email}) is in the stakeholders rail: answers and reviews are a person’s acts.`,
          status: 403,
        });
      }
      const who = { tenantId: u.tenantId, actor: u.userId, correlationId: newCorrelation(), personId: person.id };
      try {
        const done = await run(req, u, who);
        res.redirect(303, `/assessments/${encodeURIComponent(id)}?done=${done}${key ? `#q-${encodeURIComponent(key)}` : ''}`);
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        if (err.code === 'not_found' && !key) return renderError(req, res, 404, err.message);
        return showAssessment(req, res, u, id, { error: err, ...(key ? { errorQuestion: key } : {}), status: err.status });
      }
    });

  app.get(
    '/assessments',
    requireUser,
    wrap(async (req, res, u) => {
      const status = typeof req.query.status === 'string' && req.query.status in STATUS_WORDS ? req.query.status : undefined;
      const rows = await scopeToTenant(prisma, u.tenantId).assessment.findMany({
        where: status ? { status } : {},
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: 200,
      });
      render(req, res, 'assessments', {
        pageTitle: 'Assessments',
        assessments: rows.map((r) => ({ ...renderAssessment(r), statusWord: STATUS_WORDS[r.status] ?? r.status })),
        status,
        statuses: Object.entries(STATUS_WORDS),
        pct: (x: number) => `${Math.round(x * 100)} %`,
        when: (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '—'),
      });
    }),
  );

  app.get(
    '/assessments/:id',
    requireUser,
    wrap((req, res, u) => showAssessment(req, res, u, String(req.params.id))),
  );

  app.post(
    '/assessments/:id/questions/:key/answer',
    requireUser,
    step('write', async (req, u, who) => {
      const id = String(req.params.id);
      const key = String(req.params.key);
      if (!ASSESSMENT_ID.test(id) || !QUESTION_KEY.test(key)) throw new ApiError('not_found', `This tenant has no assessment ${id}.`);
      const question = (await getQuestion(prisma, u.tenantId, id, key)) as Question;
      const parsed = AnswerBodySchema.safeParse(answerFromForm(question, req.body as Record<string, unknown>));
      if (!parsed.success) throw new ApiError('validation_failed', `The answer was not saved: ${issuesOf(parsed.error)}`);
      await answerQuestion(prisma, who, id, key, parsed.data);
      return 'answered';
    }),
  );

  app.post(
    '/assessments/:id/submit',
    requireUser,
    step('write', async (req, _u, who) => {
      const reason = String(req.body.reason ?? '').trim();
      const parsed = SubmitAssessmentBody.safeParse(reason ? { reason } : {});
      if (!parsed.success) throw new ApiError('validation_failed', `The assessment was not submitted: ${issuesOf(parsed.error)}`);
      await submit(who, String(req.params.id), parsed.data);
      return 'submitted';
    }),
  );

  app.post(
    '/assessments/:id/return',
    requireUser,
    step('approve', async (req, _u, who) => {
      const form = req.body as Record<string, unknown>;
      const comments: { question: string; comment: string }[] = [];
      // Inline: `comment.<key>` beside each question; rows: `row-question.<n>` and `row-comment.<n>`.
      for (const [name, v] of Object.entries(form)) {
        if (typeof v !== 'string' || !v.trim()) continue;
        const inline = /^comment\.(.+)$/.exec(name);
        if (!inline) continue;
        comments.push({ question: inline[1] as string, comment: v.trim() });
      }
      for (let n = 0; n < COMMENT_ROWS; n++) {
        const q = form[`row-question.${n}`];
        const c = form[`row-comment.${n}`];
        if (typeof q === 'string' && q && typeof c === 'string' && c.trim()) comments.push({ question: q, comment: c.trim() });
      }
      const reason = String(form.reason ?? '').trim();
      if (comments.length === 0)
        throw new ApiError('validation_failed', 'Write a comment on at least one question: it tells the authors what to change.');
      const parsed = ReturnAssessmentBody.safeParse({ comments, ...(reason ? { reason } : {}) });
      if (!parsed.success) throw new ApiError('validation_failed', `The assessment was not returned: ${issuesOf(parsed.error)}`);
      await sendBack(who, String(req.params.id), parsed.data);
      return 'returned';
    }),
  );

  app.post(
    '/assessments/:id/approve',
    requireUser,
    step('approve', async (req, _u, who) => {
      if (req.body.confirm !== 'yes') throw new ApiError('validation_failed', 'Confirm the approval with the approval button.');
      await approve(who, String(req.params.id), {});
      return 'approved';
    }),
  );
}
