import { createHash } from 'node:crypto';
import {
  type AnswerBody,
  type AnswerVersion,
  Assessment,
  type AssessmentQuestion,
  type AssessmentRemediation,
  type AssessmentResults,
  type AssessmentType,
  type AssignBody,
  type assessments,
  type RemediateAssessmentBody,
  type ReturnAssessmentBody,
} from '@svc/contract';
import type { z } from 'zod';
import type { Prisma, Tx } from '../../db/client.ts';
import { decodeCursor, toPage } from '../../db/pagination.ts';
import type { Sql } from '../../db/sql.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError, invalid, notFound } from '../../errors.ts';
import { type Assessment as AssessmentRow, type AssessmentItem as ItemRow, Prisma as Orm } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Create, Store } from '../../kit.ts';
import type { PersonActor } from '../../platform/acting-person.ts';
import { recorded } from '../../platform/records.ts';
import { iso, rendererOf } from '../../platform/render.ts';
import {
  type AnswerState,
  answersHash,
  checkAnswer,
  type DictionaryControl,
  type DictionaryQuestion,
  frozen,
  gapResults,
  isAnswered,
  isRequired,
  openQuestions,
  progress,
  type QuestionDef,
  type QuestionSet,
  questionsFromControls,
  questionsFromRecipe,
} from './questions.ts';
import { RECIPES, recipeOf } from './recipes.ts';

/**
 * The assessment workflow: creation draws the question set (recipe and pinned dictionary, or a
 * framework's controls) and freezes it in the row; answers, assignments and review comments live
 * per question (assessment_items) with every version of every answer (assessment_answer_versions);
 * the kit's transitions submit, return and approve (four eyes), and an approval freezes a hash of
 * the answers and their evidence. Each write is one transaction with its audit event.
 */

type Stage = z.infer<typeof Assessment>['stages'][number];
const OPEN = ['draft', 'in_progress'];

// ---------------------------------------------------------------- the pinned dictionary

interface DictionaryVersion {
  questions: DictionaryQuestion[];
  controls: DictionaryControl[];
  clauseTitles: Map<string, string>;
}
/** A dictionary version's content never changes (a change is a new version): read once per process. */
const versions = new Map<string, Promise<DictionaryVersion>>();

function dictionaryVersion(shared: Tx, versionKey: string): Promise<DictionaryVersion> {
  let v = versions.get(versionKey);
  if (!v) {
    v = (async () => {
      const [questions, controls, clauses] = await Promise.all([
        shared.frameworkQuestion.findMany({ where: { versionKey }, orderBy: { ord: 'asc' } }),
        shared.frameworkControl.findMany({ where: { versionKey }, orderBy: { ord: 'asc' } }),
        shared.frameworkClause.findMany({ where: { versionKey }, select: { ref: true, title: true } }),
      ]);
      return {
        questions: questions.map((q) => ({
          id: q.id,
          text: q.text,
          controlId: q.controlId,
          clauseRef: q.clauseRef,
          answerType: q.answerType,
        })),
        controls: controls.map((c) => ({ id: c.id, title: c.title, category: c.category, clauseRefs: c.clauseRefs })),
        clauseTitles: new Map(clauses.map((c) => [c.ref, c.title])),
      };
    })();
    v.catch(() => versions.delete(versionKey));
    versions.set(versionKey, v);
  }
  return v;
}

/** The tenant's activated version of a dictionary, else (`pinLatest`) its latest; undefined when unknown. */
async function pinnedVersion(sql: Sql, tenantId: string, framework: string, pinLatest: boolean): Promise<string | undefined> {
  // One statement without the ORM: it runs on every assessment created.
  const [row] = await sql.query<{ activated: string | null; latest: string }>(
    `SELECT a."version_key" AS "activated", f."latest_version" AS "latest"
     FROM "frameworks" f
     LEFT JOIN "framework_activations" a ON a."tenant_id" = $1 AND a."framework_id" = f."id"
     WHERE f."id" = $2`,
    [tenantId, framework],
  );
  if (row?.activated) return row.activated;
  if (!pinLatest || !row) return undefined;
  return `${framework}@${row.latest}`;
}

/**
 * Question sets drawn, by what they are drawn from (recipe version, type, dictionary version):
 * the same inputs give the same set, so it is built and hashed once per process, not per assessment.
 */
const drawn = new Map<string, QuestionSet>();

async function drawnOnce(key: string, build: () => Promise<QuestionSet>): Promise<QuestionSet> {
  const hit = drawn.get(key);
  if (hit) return hit;
  const set = await build();
  setIds.set(set, questionSetId(set));
  drawn.set(key, set);
  return set;
}

/** The stages of a set with no answer yet: the same for every assessment of the set, so computed once. */
const freshStages = new WeakMap<QuestionSet, ReturnType<typeof progress>['stages']>();
function unansweredStages(set: QuestionSet): ReturnType<typeof progress>['stages'] {
  let stages = freshStages.get(set);
  if (!stages) {
    stages = progress(set, new Map()).stages;
    freshStages.set(set, stages);
  }
  return stages;
}

/** The question set of a new assessment of `type`, with what it was drawn from. */
async function drawQuestions(sql: Sql, tenantId: string, shared: Tx, type: AssessmentType, framework: string | undefined) {
  if (type === 'gap-analysis') {
    if (!framework) throw invalid('framework', 'A gap analysis names the framework it assesses.', 'missing');
    const versionKey = await pinnedVersion(sql, tenantId, framework, false);
    if (!versionKey) {
      throw invalid(
        'framework',
        `Framework ${framework} is not activated for this tenant; POST /v1/frameworks/${framework}/activate first.`,
      );
    }
    const set = await drawnOnce(`gap|${versionKey}`, async () => {
      const d = await dictionaryVersion(shared, versionKey);
      return questionsFromControls(framework, d.controls, d.questions);
    });
    return { framework, versionKey, recipeVersion: null, set };
  }
  if (framework !== undefined)
    throw invalid('framework', `framework is given only for a gap analysis; a ${type} draws its questions from its recipe.`);
  const recipe = recipeOf(type);
  if (!recipe) throw new Error(`no recipe for assessment type ${type}`);
  const versionKey = await pinnedVersion(sql, tenantId, recipe.framework, true);
  const recipeVersion = RECIPES.versionKey();
  const set = await drawnOnce(`${recipeVersion}|${type}|${versionKey ?? ''}`, async () => {
    const d = versionKey ? await dictionaryVersion(shared, versionKey) : { questions: [], clauseTitles: new Map<string, string>() };
    return questionsFromRecipe(recipe, d.questions, d.clauseTitles);
  });
  return { framework: recipe.framework, versionKey: versionKey ?? null, recipeVersion, set };
}

// ---------------------------------------------------------------- records

/** An assessment row with its question set read. */
type Loaded = AssessmentRow & { set: QuestionSet };

/** Question sets by id: immutable (the id is the hash of the content), read once per process. */
const questionSets = new Map<string, QuestionSet>();

/** The id of a question set: the SHA-256 of its JSON (remembered for the sets drawn once). */
const setIds = new WeakMap<QuestionSet, string>();
const questionSetId = (set: QuestionSet) => setIds.get(set) ?? createHash('sha256').update(JSON.stringify(set)).digest('hex');

/**
 * The ids of the sets known to be stored, per database client: the contents are the same in every
 * database (content-addressed), but a process that serves two databases must insert into each.
 */
const storedIn = new WeakMap<object, Set<string>>();

/** Stores a question set once (shared by every assessment drawn alike) and returns its id. */
async function storeQuestionSet(shared: Tx, set: QuestionSet): Promise<string> {
  const id = questionSetId(set);
  const stored = storedIn.get(shared) ?? new Set<string>();
  storedIn.set(shared, stored);
  if (stored.has(id)) return id;
  await shared.$executeRaw`INSERT INTO "assessment_question_sets" ("id", "questions") VALUES (${id}, ${JSON.stringify(set)}::jsonb)
    ON CONFLICT ("id") DO NOTHING`;
  stored.add(id);
  questionSets.set(id, set);
  return id;
}

/** The row with its question set (an assessment created before sets were drawn has none: no questions). */
async function withSet(db: Tx, row: AssessmentRow): Promise<Loaded> {
  const empty = { stages: (row.stages as Stage[]).map((s) => ({ key: s.key, title: s.title, citation: null })), questions: [] };
  if (!row.questionSet) return { ...row, set: empty };
  let set = questionSets.get(row.questionSet);
  if (!set) {
    const found = await db.assessmentQuestionSet.findUnique({ where: { id: row.questionSet } });
    if (!found) throw new Error(`question set ${row.questionSet} of assessment ${row.id} is missing`);
    set = found.questions as unknown as QuestionSet;
    questionSets.set(row.questionSet, set);
  }
  return { ...row, set };
}

const setOf = (row: Loaded): QuestionSet => row.set;

/** An assessment's question set (the reporting engine's documents read it). */
export async function questionSetOf(db: Tx, row: AssessmentRow): Promise<QuestionSet> {
  return (await withSet(db, row)).set;
}

export const renderAssessment = rendererOf<AssessmentRow>()(Assessment, {
  stages: (r) =>
    (r.stages as Partial<Stage>[]).map((s) => ({
      key: s.key as string,
      title: s.title as string,
      citation: s.citation ?? null,
      status: s.status ?? 'pending',
      questions: s.questions ?? 0,
      required: s.required ?? 0,
      answered: s.answered ?? 0,
      completion: s.completion ?? 0,
    })),
});

const stateOf = (i: ItemRow): AnswerState => ({ value: i.value as string | number | null, notes: i.notes, evidenceIds: i.evidenceIds });
const answersOf = (items: ItemRow[]) => new Map(items.filter((i) => i.version > 0).map((i) => [i.questionKey, stateOf(i)]));

function renderQuestion(
  assessmentId: string,
  q: QuestionDef,
  position: number,
  item: ItemRow | undefined,
  answers: ReadonlyMap<string, AnswerState>,
) {
  const answered = item && item.version > 0 && item.answeredAt && (item.value !== null || item.evidenceIds.length > 0);
  return {
    object: 'svc.compliance.assessment_question' as const,
    assessmentId,
    key: q.key,
    stage: q.stage,
    position,
    text: q.text,
    kind: q.kind,
    options: q.options,
    required: isRequired(q, answers),
    control: q.control,
    source: q.source,
    guidance: q.guidance,
    answer: answered
      ? {
          value: item.value as string | number | null,
          notes: item.notes,
          evidenceIds: item.evidenceIds,
          answeredBy: item.answeredBy as string,
          answeredAt: iso(item.answeredAt as Date),
          version: item.version,
        }
      : null,
    assignment:
      item?.assigneeId && item.assignedAt
        ? {
            personId: item.assigneeId,
            dueDate: item.dueDate ? iso(item.dueDate).slice(0, 10) : null,
            assignedBy: item.assignedBy as string,
            assignedAt: iso(item.assignedAt),
          }
        : null,
    review:
      item?.reviewComment && item.reviewAt ? { comment: item.reviewComment, by: item.reviewBy as string, at: iso(item.reviewAt) } : null,
  } satisfies z.infer<typeof AssessmentQuestion>;
}

/** Who acts: the person the key acts for, else the key. */
const actingAs = (who: PersonActor) => who.personId ?? who.actor;

/** The tenant's assessment (404 otherwise); with `lockFor` (the tenant), the row locked for the rest of the transaction. */
async function loadAssessment(db: Tx, id: string, lockFor?: string): Promise<Loaded> {
  if (lockFor) await db.$queryRaw`SELECT 1 FROM "assessments" WHERE "tenant_id" = ${lockFor} AND "id" = ${id} FOR UPDATE`;
  const row = await db.assessment.findFirst({ where: { id } });
  if (!row) throw notFound('Assessment', id);
  return withSet(db, row);
}

function questionOf(row: Loaded, key: string): { q: QuestionDef; position: number } {
  const questions = setOf(row).questions;
  const position = questions.findIndex((q) => q.key === key);
  if (position < 0) throw notFound(`Question ${key} of assessment`, row.id);
  return { q: questions[position] as QuestionDef, position };
}

/** The stages and completion after a change of answers, stored on the assessment (draft becomes in progress on the first answer). */
async function refresh(db: Tx, row: Loaded, items: ItemRow[], now: Date, status = row.status): Promise<void> {
  const p = progress(setOf(row), answersOf(items));
  await db.assessment.updateMany({
    where: { id: row.id },
    data: { stages: p.stages as never, completion: p.completion, status, updatedAt: now },
  });
}

// ---------------------------------------------------------------- the kit's store

export const assessmentStore: Store<typeof assessments> = {
  model: 'assessment',
  render: renderAssessment,
  create: async ({ sql, shared, who, body }) => {
    const drawn = await drawQuestions(sql, who.tenantId, shared, body.type, body.framework);
    return {
      type: body.type,
      systemId: body.systemId,
      jurisdiction: body.jurisdiction.toLowerCase(),
      title: body.title ?? null,
      status: 'draft',
      completion: 0,
      stages: unansweredStages(drawn.set),
      questionSet: await storeQuestionSet(shared, drawn.set),
      framework: drawn.framework,
      dictionaryVersion: drawn.versionKey,
      recipeVersion: drawn.recipeVersion,
      revision: 1,
      createdBy: who.actor,
    };
  },
  auditData: (a) => ({ type: a.type, systemId: a.systemId, jurisdiction: a.jurisdiction, dictionaryVersion: a.dictionaryVersion }),
  transitions: {
    start: () => ({}),
    submit: {
      guard: async ({ tx, who, row, now }) => {
        const r = row as AssessmentRow;
        const db = scopeToTenant(tx, who.tenantId);
        const open = openQuestions(
          setOf(await withSet(tx, r)),
          answersOf(await db.assessmentItem.findMany({ where: { assessmentId: r.id } })),
        );
        if (open.length > 0) {
          throw new ApiError(
            'validation_failed',
            `Assessment ${r.id} has ${open.length} required question(s) without an answer; answer them before submitting.`,
            open.slice(0, 100).map((q) => ({ field: `questions.${q.key}`, issue: 'missing', message: q.text.slice(0, 200) })),
          );
        }
        const by = who.personId;
        await db.assessment.updateMany({ where: { id: r.id }, data: { submittedAt: now, submittedBy: by ?? who.actor } });
        return { submittedBy: by ?? who.actor };
      },
    },
    send_back: {
      guard: async ({ tx, who, row, body, now }) => {
        const r = row as AssessmentRow;
        const db = scopeToTenant(tx, who.tenantId);
        const keys = new Set(setOf(await withSet(tx, r)).questions.map((q) => q.key));
        const c = body as z.infer<typeof ReturnAssessmentBody>;
        const unknown = c.comments.findIndex((x) => !keys.has(x.question));
        if (unknown >= 0)
          throw invalid(
            `comments.${unknown}.question`,
            `Question ${c.comments[unknown]?.question} is not a question of assessment ${r.id}.`,
          );
        const by = who.personId ?? who.actor;
        for (const x of c.comments) {
          await db.assessmentItem.upsert({
            where: { tenantId_assessmentId_questionKey: { tenantId: who.tenantId, assessmentId: r.id, questionKey: x.question } },
            create: {
              tenantId: who.tenantId,
              assessmentId: r.id,
              questionKey: x.question,
              reviewComment: x.comment,
              reviewBy: by,
              reviewAt: now,
            },
            update: { reviewComment: x.comment, reviewBy: by, reviewAt: now, updatedAt: now },
          });
        }
        return { comments: c.comments.map((x) => x.question), returnedBy: by };
      },
    },
    approve: {
      guard: async ({ tx, who, row, now }) => {
        const r = row as AssessmentRow;
        const db = scopeToTenant(tx, who.tenantId);
        const person = who.personId;
        if (!person) {
          throw new ApiError(
            'forbidden',
            'An approval is a person’s act: this API key is a service key bound to no person (an operator creates a key with personId).',
            [{ field: 'authorization', issue: 'service_key' }],
          );
        }
        // Whoever recorded a version of an answer, and whoever gave an answer carried into this revision.
        const [versions, givers] = await Promise.all([
          db.assessmentAnswerVersion.findMany({ where: { assessmentId: r.id }, select: { actor: true }, distinct: ['actor'] }),
          db.assessmentItem.findMany({
            where: { assessmentId: r.id, answeredBy: { not: null } },
            select: { answeredBy: true },
            distinct: ['answeredBy'],
          }),
        ]);
        const authors = new Set([...versions.map((v) => v.actor), ...givers.map((g) => g.answeredBy as string)]);
        if (authors.has(person) || authors.has(who.actor)) {
          throw new ApiError(
            'forbidden',
            `Four eyes: ${person} answered questions of assessment ${r.id} and cannot approve it; another person approves.`,
            [{ field: 'authorization', issue: 'four_eyes', message: 'the approver answered questions of this assessment' }],
          );
        }
        const items = await db.assessmentItem.findMany({ where: { assessmentId: r.id } });
        const answers = answersOf(items);
        const ids = [...new Set([...answers.values()].flatMap((a) => a.evidenceIds))];
        const evidence = await db.evidence.findMany({ where: { id: { in: ids } }, select: { id: true, sha256: true } });
        const hash = answersHash(answers, new Map(evidence.map((e) => [e.id, e.sha256])));
        await db.assessment.updateMany({ where: { id: r.id }, data: { approvedAt: now, approvedBy: person, answersHash: hash } });
        return { approvedBy: person, answersHash: hash };
      },
    },
  },
};

// ---------------------------------------------------------------- questions and answers

export async function listQuestions(
  prisma: Prisma,
  tenantId: string,
  id: string,
  query: { limit: number; cursor?: string; stage?: string; answered?: 'true' | 'false'; required?: 'true' | 'false'; personId?: string },
) {
  const db = scopeToTenant(prisma, tenantId);
  const row = await loadAssessment(db, id);
  const items = new Map((await db.assessmentItem.findMany({ where: { assessmentId: id } })).map((i) => [i.questionKey, i]));
  const answers = answersOf([...items.values()]);
  const after = decodeCursor(query.cursor, 'number') ?? -1;
  const rows = setOf(row)
    .questions.map((q, position) => ({ q, position }))
    .filter(({ q, position }) => {
      if (position <= after) return false;
      if (query.stage !== undefined && q.stage !== query.stage) return false;
      if (query.answered !== undefined && isAnswered(q, answers.get(q.key)) !== (query.answered === 'true')) return false;
      if (query.required !== undefined && isRequired(q, answers) !== (query.required === 'true')) return false;
      if (query.personId !== undefined && items.get(q.key)?.assigneeId !== query.personId) return false;
      return true;
    })
    .slice(0, query.limit + 1);
  return toPage(
    rows,
    query.limit,
    (r) => r.position,
    (r) => renderQuestion(id, r.q, r.position, items.get(r.q.key), answers),
  );
}

export async function getQuestion(prisma: Prisma, tenantId: string, id: string, key: string) {
  const db = scopeToTenant(prisma, tenantId);
  const row = await loadAssessment(db, id);
  const { q, position } = questionOf(row, key);
  const items = await db.assessmentItem.findMany({ where: { assessmentId: id } });
  return renderQuestion(
    id,
    q,
    position,
    items.find((i) => i.questionKey === key),
    answersOf(items),
  );
}

/** Evidence ids that are not current evidence records of the tenant: absent, or expired at `now`. */
async function checkEvidence(db: Tx, ids: string[], now: Date): Promise<void> {
  if (ids.length === 0) return;
  const found = new Map(
    (await db.evidence.findMany({ where: { id: { in: ids } }, select: { id: true, expiresAt: true } })).map((e) => [e.id, e]),
  );
  for (const [i, id] of ids.entries()) {
    const e = found.get(id);
    if (!e) throw invalid(`evidenceIds.${i}`, `Evidence ${id} does not exist in this tenant.`);
    if (e.expiresAt && e.expiresAt.getTime() <= now.getTime()) {
      throw invalid(`evidenceIds.${i}`, `Evidence ${id} expired at ${iso(e.expiresAt)}; attach current evidence.`);
    }
  }
}

/** Answers (or, with `body` null, clears) a question: a new version, the item, the stages, the audit event. */
export async function answerQuestion(prisma: Prisma, who: PersonActor, id: string, key: string, body: z.infer<typeof AnswerBody> | null) {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await loadAssessment(db, id, who.tenantId);
    if (!OPEN.includes(row.status)) throw frozen(id, row.status);
    const { q, position } = questionOf(row, key);
    const now = new Date();
    const evidenceIds = body ? [...new Set(body.evidenceIds ?? [])] : [];
    const value = body ? checkAnswer(q, { ...body, evidenceIds }) : null;
    await checkEvidence(db, evidenceIds, now);
    const items = await db.assessmentItem.findMany({ where: { assessmentId: id } });
    const current = items.find((i) => i.questionKey === key);
    const had = current !== undefined && current.version > 0 && (current.value !== null || current.evidenceIds.length > 0);
    if (!body && !had) throw new ApiError('conflict', `Question ${key} of assessment ${id} has no answer to clear.`);
    const version = (current?.version ?? 0) + 1;
    const by = actingAs(who);
    const state = { value, notes: body?.notes ?? null, evidenceIds, version, answeredBy: by, answeredAt: now, updatedAt: now };
    const item = await db.assessmentItem.upsert({
      where: { tenantId_assessmentId_questionKey: { tenantId: who.tenantId, assessmentId: id, questionKey: key } },
      create: { tenantId: who.tenantId, assessmentId: id, questionKey: key, ...state, value: value ?? Orm.DbNull },
      update: { ...state, value: value ?? Orm.DbNull, ...(body ? { reviewComment: null, reviewBy: null, reviewAt: null } : {}) },
    });
    const action = !body ? 'cleared' : had ? 'changed' : 'answered';
    await db.assessmentAnswerVersion.create({
      data: {
        tenantId: who.tenantId,
        assessmentId: id,
        questionKey: key,
        version,
        action,
        value: value ?? Orm.DbNull,
        notes: state.notes,
        evidenceIds,
        actor: by,
        at: now,
      },
    });
    const all = [...items.filter((i) => i.questionKey !== key), item];
    await refresh(db, row, all, now, row.status === 'draft' && body ? 'in_progress' : row.status);
    const record = renderQuestion(id, q, position, item, answersOf(all));
    return recorded(tx, who, record, {
      action: body ? 'assessment.answered' : 'assessment.answer_cleared',
      resourceType: 'svc.compliance.assessment',
      resourceId: id,
      data: { question: key, version, change: action, evidenceIds, answeredBy: by },
    });
  });
}

export async function assignQuestion(prisma: Prisma, who: PersonActor, id: string, key: string, body: z.infer<typeof AssignBody>) {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await loadAssessment(db, id, who.tenantId);
    if (row.status === 'approved') throw frozen(id, row.status);
    const { q, position } = questionOf(row, key);
    if (body.personId !== null) {
      const person = await db.stakeholderUser.findFirst({ where: { id: body.personId }, select: { status: true } });
      if (!person) throw invalid('personId', `Person ${body.personId} does not exist in this tenant.`);
      if (person.status !== 'active') throw invalid('personId', `Person ${body.personId} is ${person.status}; assign an active person.`);
    } else if (body.dueDate) {
      throw invalid('dueDate', 'A due date needs a person to assign the question to.');
    }
    const now = new Date();
    const assignment =
      body.personId === null
        ? { assigneeId: null, dueDate: null, assignedBy: null, assignedAt: null }
        : {
            assigneeId: body.personId,
            dueDate: body.dueDate ? new Date(`${body.dueDate}T00:00:00.000Z`) : null,
            assignedBy: actingAs(who),
            assignedAt: now,
          };
    const item = await db.assessmentItem.upsert({
      where: { tenantId_assessmentId_questionKey: { tenantId: who.tenantId, assessmentId: id, questionKey: key } },
      create: { tenantId: who.tenantId, assessmentId: id, questionKey: key, ...assignment },
      update: { ...assignment, updatedAt: now },
    });
    const items = await db.assessmentItem.findMany({ where: { assessmentId: id } });
    const record = renderQuestion(id, q, position, item, answersOf(items));
    return recorded(tx, who, record, {
      action: 'assessment.question_assigned',
      resourceType: 'svc.compliance.assessment',
      resourceId: id,
      data: { question: key, personId: body.personId, dueDate: body.dueDate ?? null },
    });
  });
}

export async function answerHistory(prisma: Prisma, tenantId: string, id: string, key: string, query: { limit: number; cursor?: string }) {
  const db = scopeToTenant(prisma, tenantId);
  questionOf(await loadAssessment(db, id), key);
  const before = decodeCursor(query.cursor, 'number');
  const rows = await db.assessmentAnswerVersion.findMany({
    where: { assessmentId: id, questionKey: key, ...(before !== undefined ? { version: { lt: before } } : {}) },
    orderBy: { version: 'desc' },
    take: query.limit + 1,
  });
  return toPage(
    rows,
    query.limit,
    (r) => r.version,
    (r): z.infer<typeof AnswerVersion> => ({
      object: 'svc.compliance.answer_version',
      assessmentId: id,
      question: key,
      version: r.version,
      action: r.action as z.infer<typeof AnswerVersion>['action'],
      value: r.value as string | number | null,
      notes: r.notes,
      evidenceIds: r.evidenceIds,
      by: r.actor,
      at: iso(r.at),
    }),
  );
}

// ---------------------------------------------------------------- results, remediation, revisions

async function controlsOf(shared: Tx, row: Loaded): Promise<Map<string, DictionaryControl>> {
  if (row.type !== 'gap-analysis' || !row.dictionaryVersion) return new Map();
  return new Map((await dictionaryVersion(shared, row.dictionaryVersion)).controls.map((c) => [c.id, c]));
}

export async function results(prisma: Prisma, tenantId: string, id: string): Promise<z.infer<typeof AssessmentResults>> {
  const db = scopeToTenant(prisma, tenantId);
  const row = await loadAssessment(db, id);
  const set = setOf(row);
  const answers = answersOf(await db.assessmentItem.findMany({ where: { assessmentId: id } }));
  const p = progress(set, answers);
  const gap = row.type === 'gap-analysis' ? gapResults(set, answers, await controlsOf(prisma, row)) : undefined;
  return {
    object: 'svc.compliance.assessment_results',
    assessmentId: id,
    type: row.type,
    status: row.status,
    dictionaryVersion: row.dictionaryVersion,
    completion: p.completion,
    stages: p.stages.map((s) => ({ key: s.key, title: s.title, required: s.required, answered: s.answered, completion: s.completion })),
    open: openQuestions(set, answers).map((q) => ({ question: q.key, stage: q.stage, text: q.text })),
    score: gap?.score ?? null,
    frameworks: gap ? [{ framework: row.framework as string, dictionaryVersion: row.dictionaryVersion, ...gap.framework }] : [],
    controls: gap?.controls ?? [],
    clauses: gap?.clauses ?? [],
    gaps: gap?.gaps ?? [],
    answersHash: row.answersHash,
  };
}

/** The creates of findings and remediations, as the self-audit rail serves them (kit.ts createOf). */
export interface RemediationCreates {
  finding: Create;
  remediation: Create;
}

/**
 * Turns the gaps of an approved gap analysis into self-audit findings, each with its remediation,
 * through the self-audit rail's own creates (their checks, records, audit events and webhooks), in
 * one transaction; a gap already turned into a finding is skipped.
 */
export async function remediate(
  prisma: Prisma,
  who: PersonActor,
  id: string,
  body: z.infer<typeof RemediateAssessmentBody>,
  creates: RemediationCreates,
): Promise<z.infer<typeof AssessmentRemediation>> {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await loadAssessment(db, id, who.tenantId);
    if (row.type !== 'gap-analysis' || row.status !== 'approved') {
      throw new ApiError(
        'conflict',
        `Assessment ${id} is a ${row.status} ${row.type}; only an approved gap analysis is turned into findings.`,
        [{ field: 'status', issue: 'invalid_value', message: `current: ${row.type}, ${row.status}` }],
      );
    }
    if (body.ownerId) {
      const owner = await db.stakeholderUser.findFirst({ where: { id: body.ownerId }, select: { id: true } });
      if (!owner) throw invalid('ownerId', `Person ${body.ownerId} does not exist in this tenant.`);
    }
    const items = await db.assessmentItem.findMany({ where: { assessmentId: id } });
    const byKey = new Map(items.map((i) => [i.questionKey, i]));
    const { gaps } = gapResults(setOf(row), answersOf(items), await controlsOf(prisma, row));
    const wanted = body.controls ? new Set(body.controls) : undefined;
    const gapControls = new Set(gaps.map((g) => g.control));
    for (const [i, c] of (body.controls ?? []).entries()) {
      if (!gapControls.has(c)) throw invalid(`controls.${i}`, `Control ${c} is not a gap of assessment ${id}.`);
    }
    const out: z.infer<typeof AssessmentRemediation> = {
      object: 'svc.compliance.assessment_remediation',
      assessmentId: id,
      created: [],
      skipped: [],
    };
    for (const g of gaps) {
      if (wanted && !wanted.has(g.control)) continue;
      const key = `req.${g.control}`;
      const done = byKey.get(key)?.findingId;
      if (done) {
        out.skipped.push({ control: g.control, findingId: done });
        continue;
      }
      const severity = g.status === 'non_compliant' || g.status === null ? 'high' : 'medium';
      const finding = await creates.finding(tx, who, {
        title: `Gap: ${g.control} ${g.title}`.slice(0, 200),
        description:
          `From gap analysis ${id} (${row.dictionaryVersion}): ${g.status ?? 'not assessed'}. Missing: ${g.missing.join('; ')}`.slice(
            0,
            4000,
          ),
        severity,
        controlId: g.control,
        ...(row.systemId ? { systemId: row.systemId } : {}),
      });
      const remediation = await creates.remediation(tx, who, {
        findingId: finding.id,
        plan: `Close the gap of ${g.control}: ${g.missing.join('; ')}`.slice(0, 4000),
        ...(body.ownerId ? { ownerId: body.ownerId } : {}),
        ...(body.dueDate ? { dueDate: `${body.dueDate}T00:00:00.000Z` } : {}),
      });
      await db.assessmentItem.upsert({
        where: { tenantId_assessmentId_questionKey: { tenantId: who.tenantId, assessmentId: id, questionKey: key } },
        create: { tenantId: who.tenantId, assessmentId: id, questionKey: key, findingId: finding.id },
        update: { findingId: finding.id },
      });
      out.created.push({ control: g.control, findingId: finding.id, remediationId: remediation.id, severity });
    }
    return recorded(tx, who, out, {
      action: 'assessment.remediated',
      resourceId: id,
      data: { created: out.created.length, skipped: out.skipped.length, findings: out.created.map((c) => c.findingId) },
    });
  });
}

/** A new revision of an approved assessment: the same questions, the answers carried over. */
export async function revise(prisma: Prisma, who: PersonActor, id: string) {
  return prisma.$transaction(async (tx) => {
    const db = scopeToTenant(tx, who.tenantId);
    const row = await loadAssessment(db, id, who.tenantId);
    if (row.status !== 'approved') {
      throw new ApiError('conflict', `Assessment ${id} is ${row.status}; only an approved assessment is revised.`, [
        { field: 'status', issue: 'invalid_value', message: `current state: ${row.status}` },
      ]);
    }
    const later = await db.assessment.findFirst({ where: { previousId: id }, select: { id: true } });
    if (later) throw new ApiError('conflict', `Assessment ${id} already has revision ${later.id}; revise that one.`);
    const now = new Date();
    const newIdValue = newId('asm');
    const items = (await db.assessmentItem.findMany({ where: { assessmentId: id } })).filter(
      (i) => i.version > 0 && (i.value !== null || i.evidenceIds.length > 0),
    );
    const set = setOf(row);
    const p = progress(set, answersOf(items));
    const created = await db.assessment.create({
      data: {
        id: newIdValue,
        tenantId: who.tenantId,
        type: row.type,
        systemId: row.systemId,
        jurisdiction: row.jurisdiction,
        title: row.title,
        status: 'in_progress',
        completion: p.completion,
        stages: p.stages as never,
        questionSet: row.questionSet,
        framework: row.framework,
        dictionaryVersion: row.dictionaryVersion,
        recipeVersion: row.recipeVersion,
        revision: row.revision + 1,
        previousId: id,
        createdBy: who.actor,
        createdAt: now,
        updatedAt: now,
      },
    });
    const by = actingAs(who);
    for (const i of items) {
      const carried = { value: i.value ?? Orm.DbNull, notes: i.notes, evidenceIds: i.evidenceIds };
      await db.assessmentItem.create({
        data: {
          tenantId: who.tenantId,
          assessmentId: newIdValue,
          questionKey: i.questionKey,
          ...carried,
          version: 1,
          answeredBy: i.answeredBy,
          answeredAt: i.answeredAt,
          updatedAt: now,
        },
      });
      await db.assessmentAnswerVersion.create({
        data: {
          tenantId: who.tenantId,
          assessmentId: newIdValue,
          questionKey: i.questionKey,
          version: 1,
          action: 'carried',
          ...carried,
          actor: by,
          at: now,
        },
      });
    }
    return recorded(tx, who, renderAssessment(created), {
      action: 'assessment.created',
      data: { type: created.type, systemId: created.systemId, previousId: id, revision: created.revision, carried: items.length },
    });
  });
}
