import {
  DEFAULT_ONBOARDING_PROFILE,
  type INDUSTRY_IDS,
  Onboarding,
  type OnboardingChecklist,
  type OnboardingExport,
  type OnboardingMilestones,
  type OnboardingPhase,
  type OnboardingPlan,
  type OnboardingTask,
} from '@svc/contract';
import type { z } from 'zod';

type Industry = (typeof INDUSTRY_IDS)[number];

import type { Prisma, Tx } from '../../db/client.ts';
import { scopeToTenant } from '../../db/tenant-scope.ts';
import { ApiError } from '../../errors.ts';
import type { Onboarding as OnboardingRow } from '../../generated/prisma/client.ts';
import { newId } from '../../ids.ts';
import type { Actor } from '../../platform/ledger/changes.ts';
import { createUnique, recorded } from '../../platform/records.ts';
import { rendererOf } from '../../platform/render.ts';
import { byPriority, type ProfileEntry, profileAssessments, profileEntry, resolveProfile } from '../profiles/service.ts';

type Task = z.infer<typeof OnboardingTask>;
type Phase = z.infer<typeof OnboardingPhase>;
type Row = OnboardingRow;

const OPEN = 'open';
const DAY_MS = 86_400_000;
const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Every task of a profile in phases, before anything is left out: activate each framework (by
 * priority), record evidence for each baseline control (one phase per priority), then create the
 * assessments the frameworks call for. Empty phases are dropped; weeks count the phases left.
 */
async function fullPhases(shared: Tx, p: ProfileEntry): Promise<Phase[]> {
  const { fwById, ctlById } = await resolveProfile(shared, p);
  const phases: { name: string; tasks: Task[] }[] = [];
  phases.push({
    name: 'Activate frameworks',
    tasks: byPriority(p.frameworks).map((f) => ({
      id: `activate_framework:${f.id}`,
      kind: 'activate_framework',
      title: `Activate ${fwById.get(f.id)?.shortTitle ?? f.id}`,
      framework: f.id,
      controlId: null,
      assessmentType: null,
      priority: f.priority,
      why: f.why,
    })),
  });
  for (const priority of [1, 2, 3]) {
    phases.push({
      name: `Evidence for priority ${priority} baseline controls`,
      tasks: p.controlBaseline
        .filter((b) => b.priority === priority)
        .map((b) => {
          const c = ctlById.get(b.controlId);
          return {
            id: `collect_evidence:${b.controlId}`,
            kind: 'collect_evidence',
            title: `Record evidence for ${b.controlId}: ${c?.title ?? b.controlId}`,
            framework: c?.framework ?? '',
            controlId: b.controlId,
            assessmentType: null,
            priority: b.priority,
            why: b.why,
          };
        }),
    });
  }
  phases.push({
    name: 'Run assessments',
    tasks: profileAssessments(p).map((a) => ({
      id: `run_assessment:${a.type}`,
      kind: 'run_assessment',
      title: `Create a ${a.type} assessment`,
      framework: a.framework,
      controlId: null,
      assessmentType: a.type,
      priority: a.priority,
      why: a.why,
    })),
  });
  return phases.filter((ph) => ph.tasks.length > 0).map((ph, i) => ({ week: i + 1, ...ph }));
}

/** When each task was done according to the tenant's data (absent: not done). */
async function doneAt(db: Tx, tasks: readonly Task[]): Promise<Map<string, Date>> {
  const frameworks = [...new Set(tasks.filter((t) => t.kind === 'activate_framework').map((t) => t.framework))];
  const controls = tasks.flatMap((t) => (t.kind === 'collect_evidence' && t.controlId ? [t.controlId] : []));
  const types = tasks.flatMap((t) => (t.kind === 'run_assessment' && t.assessmentType ? [t.assessmentType] : []));
  const now = new Date();
  const [activations, evidence, assessments] = await Promise.all([
    frameworks.length === 0
      ? []
      : db.frameworkActivation.findMany({ where: { frameworkId: { in: frameworks } }, select: { frameworkId: true, createdAt: true } }),
    controls.length === 0
      ? []
      : db.evidence.findMany({
          where: { controlIds: { hasSome: controls }, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
          select: { controlIds: true, createdAt: true },
          orderBy: { createdAt: 'asc' },
        }),
    types.length === 0
      ? []
      : db.assessment.findMany({ where: { type: { in: types } }, select: { type: true, createdAt: true }, orderBy: { createdAt: 'asc' } }),
  ]);
  const done = new Map<string, Date>();
  const first = (id: string, at: Date) => {
    if (!done.has(id)) done.set(id, at);
  };
  for (const a of activations) first(`activate_framework:${a.frameworkId}`, a.createdAt);
  for (const e of evidence) for (const c of e.controlIds) first(`collect_evidence:${c}`, e.createdAt);
  for (const a of assessments) first(`run_assessment:${a.type}`, a.createdAt);
  return done;
}

/** The phases with what is done left out, empty phases dropped and weeks renumbered. */
function remaining(phases: readonly Phase[], done: ReadonlyMap<string, Date>): Phase[] {
  return phases
    .map((ph) => ({ ...ph, tasks: ph.tasks.filter((t) => !done.has(t.id)) }))
    .filter((ph) => ph.tasks.length > 0)
    .map((ph, i) => ({ ...ph, week: i + 1 }));
}

async function computePlan(
  prisma: Tx,
  db: Tx,
  profile: string,
): Promise<{ plan: z.infer<typeof OnboardingPlan>; phases: Phase[]; done: Map<string, Date> }> {
  const p = profileEntry(profile);
  const phases = await fullPhases(prisma, p);
  const all = phases.flatMap((ph) => ph.tasks);
  const done = await doneAt(db, all);
  const left = remaining(phases, done);
  const tasks = left.reduce((n, ph) => n + ph.tasks.length, 0);
  return {
    plan: {
      object: 'svc.onboarding.plan',
      profile: p.id,
      phases: left,
      totals: { tasks, alreadyDone: all.length - tasks, weeks: left.length },
    },
    phases,
    done,
  };
}

export async function plan(prisma: Prisma, tenantId: string, profile: string) {
  return (await computePlan(prisma, scopeToTenant(prisma, tenantId), profile)).plan;
}

const render = rendererOf<Row>()(Onboarding, { phases: (r) => r.phases as Phase[] });

async function openOnboarding(db: Tx): Promise<Row | null> {
  return db.onboarding.findFirst({ where: { openSlot: OPEN } });
}

type ProfileSource = 'query' | 'onboarding' | 'default';

/**
 * The profile of an answer: the query's, else the open onboarding's, else the latest onboarding's,
 * else (a tenant that never started one) the default profile. Never a 404: what is known is answered.
 */
async function resolveProfileId(
  db: Tx,
  profile: string | undefined,
): Promise<{ profile: string; source: ProfileSource; open: Row | null }> {
  const open = await openOnboarding(db);
  if (profile !== undefined) return { profile, source: 'query', open };
  const kicked = await onboardingProfile(db, open);
  if (kicked) return { profile: kicked, source: 'onboarding', open };
  return { profile: DEFAULT_ONBOARDING_PROFILE, source: 'default', open };
}

/**
 * The profile of the tenant's onboarding kickoff: the one in progress (`open`, when the caller has
 * read it already), else the latest; null when the tenant never started one. Self-audit's drift
 * compares against it too.
 */
export async function onboardingProfile(db: Tx, open?: Row | null): Promise<string | null> {
  const current = open === undefined ? await openOnboarding(db) : open;
  if (current) return current.profile;
  const latest = await db.onboarding.findFirst({ orderBy: { createdAt: 'desc' }, select: { profile: true } });
  return latest?.profile ?? null;
}

function buildChecklist(
  profile: string,
  source: ProfileSource,
  open: Row | null,
  phases: Phase[],
  done: Map<string, Date>,
): z.infer<typeof OnboardingChecklist> {
  const items = phases.flatMap((ph) =>
    ph.tasks.map((t) => {
      const at = done.get(t.id);
      return { ...t, week: ph.week, done: at !== undefined, doneAt: at ? at.toISOString() : null };
    }),
  );
  return {
    object: 'svc.onboarding.checklist',
    profile: profile as Industry,
    profileSource: source,
    onboardingId: open?.id ?? null,
    items,
    done: items.filter((i) => i.done).length,
    total: items.length,
  };
}

export async function checklist(prisma: Prisma, tenantId: string, query: { profile?: string }) {
  const db = scopeToTenant(prisma, tenantId);
  const { profile, source, open } = await resolveProfileId(db, query.profile);
  const { phases, done } = await computePlan(prisma, db, profile);
  return buildChecklist(profile, source, open, phases, done);
}

/**
 * Progress of phases per week from a start: the open onboarding's plan from its kickoff, or
 * (projected) the full plan of a profile from now, when none is in progress.
 */
function progressOf(
  phases: Phase[],
  done: ReadonlyMap<string, Date>,
  head: { onboardingId: string | null; profile: string; source: ProfileSource; startedAt: Date | null },
  now = new Date(),
): z.infer<typeof OnboardingMilestones> {
  const started = (head.startedAt ?? now).getTime();
  let total = 0;
  let doneCount = 0;
  const out = phases.map((ph) => {
    const n = ph.tasks.length;
    const d = ph.tasks.filter((t) => done.has(t.id)).length;
    total += n;
    doneCount += d;
    const due = new Date(started + ph.week * 7 * DAY_MS);
    const status: 'not_started' | 'in_progress' | 'done' | 'overdue' =
      d === n ? 'done' : now > due ? 'overdue' : d > 0 ? 'in_progress' : 'not_started';
    return {
      week: ph.week,
      name: ph.name,
      dueDate: due.toISOString().slice(0, 10),
      total: n,
      done: d,
      percent: n === 0 ? 100 : round1((d / n) * 100),
      status,
    };
  });
  return {
    object: 'svc.onboarding.milestones',
    onboardingId: head.onboardingId,
    profile: head.profile as Industry,
    profileSource: head.source,
    projected: head.onboardingId === null,
    startedAt: head.startedAt ? head.startedAt.toISOString() : null,
    phases: out,
    overall: { total, done: doneCount, percent: total === 0 ? 100 : round1((doneCount / total) * 100) },
  };
}

async function progress(db: Tx, row: Row, now = new Date()): Promise<z.infer<typeof OnboardingMilestones>> {
  const phases = row.phases as Phase[];
  const done = await doneAt(
    db,
    phases.flatMap((ph) => ph.tasks),
  );
  return progressOf(phases, done, { onboardingId: row.id, profile: row.profile, source: 'onboarding', startedAt: row.createdAt }, now);
}

/** The open onboarding's milestones; without one, those of the full plan of the profile, projected from now. */
export async function milestones(prisma: Prisma, tenantId: string, query: { profile?: string } = {}) {
  const db = scopeToTenant(prisma, tenantId);
  const { profile, source, open } = await resolveProfileId(db, query.profile);
  if (open) return progress(db, open);
  const { phases, done } = await computePlan(prisma, db, profile);
  return progressOf(phases, done, { onboardingId: null, profile, source, startedAt: null });
}

export async function exportDocument(
  prisma: Prisma,
  tenantId: string,
  query: { profile?: string },
): Promise<z.infer<typeof OnboardingExport>> {
  const db = scopeToTenant(prisma, tenantId);
  const { profile, source, open } = await resolveProfileId(db, query.profile);
  const computed = await computePlan(prisma, db, profile);
  return {
    object: 'svc.onboarding.export',
    generatedAt: new Date().toISOString(),
    profile: profile as Industry,
    profileSource: source,
    onboarding: open ? render(open) : null,
    plan: computed.plan,
    checklist: buildChecklist(profile, source, open, computed.phases, computed.done),
    milestones: open
      ? await progress(db, open)
      : progressOf(computed.phases, computed.done, { onboardingId: null, profile, source, startedAt: null }),
  };
}

/**
 * Starts a tracked onboarding with the plan computed now. An open onboarding whose tasks are all
 * done is closed first (audited); one still in progress makes this a 409. The unique (tenant,
 * open_slot) index settles a race between two kickoffs.
 */
export async function kickoff(prisma: Prisma, who: Actor, profile: string): Promise<z.infer<typeof Onboarding>> {
  profileEntry(profile);
  return createUnique(
    prisma.$transaction(async (tx) => {
      const db = scopeToTenant(tx, who.tenantId);
      const open = await openOnboarding(db);
      if (open) {
        const p = await progress(db, open);
        if (p.overall.done < p.overall.total) {
          throw new ApiError(
            'conflict',
            `Onboarding ${open.id} (${open.profile}) is in progress (${p.overall.percent} % done); finish it before starting another.`,
          );
        }
        const completedAt = new Date();
        await db.onboarding.updateMany({ where: { id: open.id }, data: { status: 'completed', openSlot: null, completedAt } });
        await recorded(tx, who, render({ ...open, status: 'completed', openSlot: null, completedAt }), {
          action: 'onboarding.completed',
          data: { profile: open.profile, tasks: p.overall.total },
        });
      }
      const { plan: computed } = await computePlan(tx, db, profile);
      const row = await db.onboarding.create({
        data: {
          id: newId('onb'),
          tenantId: who.tenantId,
          profile,
          status: 'in_progress',
          openSlot: OPEN,
          phases: computed.phases,
          startedBy: who.actor,
        },
      });
      return recorded(tx, who, render(row), {
        action: 'onboarding.started',
        data: { profile, tasks: computed.totals.tasks, weeks: computed.totals.weeks },
      });
    }),
    () => new ApiError('conflict', 'Another onboarding was started at the same time; it is in progress.'),
  );
}
