import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ASSESSMENT_TYPE_IDS, INDUSTRY_IDS, type IndustryProfile, type IndustryProfileSummary } from '@svc/contract';
import { z } from 'zod';
import { contentGeneration, contentPath, SHIPPED_CONTENT } from '../../content/paths.ts';
import type { Tx } from '../../db/client.ts';
import { decodeCursor, toPage } from '../../db/pagination.ts';
import { ApiError } from '../../errors.ts';

/** Where the profile catalogue is in a content folder; checked by the schema below when read. */
export const PROFILES_PATH = join('profiles', 'industry-profiles.json');
/** The shipped catalogue. */
export const PROFILES_FILE = join(SHIPPED_CONTENT, PROFILES_PATH);

const DictId = z.string().regex(/^[a-z0-9][a-z0-9-]{1,63}$/);
const Why = z.string().min(20).max(600);
const Priority = z.int().min(1).max(3);

export const ProfileCatalogueSchema = z
  .strictObject({
    version: z.string().regex(/^\d+\.\d+\.\d+$/),
    frameworkAssessments: z.array(z.strictObject({ framework: DictId, type: z.enum(ASSESSMENT_TYPE_IDS), why: Why })),
    profiles: z
      .array(
        z.strictObject({
          id: z.enum(INDUSTRY_IDS),
          title: z.string().min(2).max(80),
          description: z.string().min(20).max(600),
          frameworks: z.array(z.strictObject({ id: DictId, priority: Priority, why: Why })).min(2),
          controlBaseline: z
            .array(z.strictObject({ controlId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/), priority: Priority, why: Why }))
            .min(3),
        }),
      )
      .length(INDUSTRY_IDS.length),
  })
  .superRefine((c, ctx) => {
    const seen = new Set<string>();
    for (const [i, p] of c.profiles.entries()) {
      if (seen.has(p.id)) ctx.addIssue({ code: 'custom', path: ['profiles', i, 'id'], message: `profile ${p.id} twice` });
      seen.add(p.id);
      const fws = p.frameworks.map((f) => f.id);
      if (new Set(fws).size !== fws.length)
        ctx.addIssue({ code: 'custom', path: ['profiles', i, 'frameworks'], message: 'framework twice' });
      const ctl = p.controlBaseline.map((b) => b.controlId);
      if (new Set(ctl).size !== ctl.length)
        ctx.addIssue({ code: 'custom', path: ['profiles', i, 'controlBaseline'], message: 'control twice' });
    }
  });

export type ProfileCatalogue = z.infer<typeof ProfileCatalogueSchema>;
export type ProfileEntry = ProfileCatalogue['profiles'][number];

let cached: { file: string; generation: number; catalogue: ProfileCatalogue } | undefined;

/** Reads and checks a catalogue file; a broken file fails loudly, never silently. */
export function readProfileCatalogue(file: string): ProfileCatalogue {
  const parsed = ProfileCatalogueSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

/** The catalogue of the content folder in use (`SVC_CONTENT_DIR` or the shipped one), read once per file. */
export function profileCatalogue(): ProfileCatalogue {
  const file = contentPath(PROFILES_PATH);
  if (cached?.file !== file || cached.generation !== contentGeneration())
    cached = { file, generation: contentGeneration(), catalogue: readProfileCatalogue(file) };
  return cached.catalogue;
}

/**
 * Ids the catalogue cites that no dictionary holds: frameworks that do not exist, and baseline
 * controls that are not in one of the profile's own frameworks. Empty when the file is sound.
 */
export function unresolvedReferences(
  catalogue: ProfileCatalogue,
  controlsByDictionary: ReadonlyMap<string, ReadonlySet<string>>,
): string[] {
  const out: string[] = [];
  for (const a of catalogue.frameworkAssessments) {
    if (!controlsByDictionary.has(a.framework)) out.push(`frameworkAssessments: unknown framework ${a.framework}`);
  }
  for (const p of catalogue.profiles) {
    for (const f of p.frameworks) if (!controlsByDictionary.has(f.id)) out.push(`${p.id}: unknown framework ${f.id}`);
    for (const b of p.controlBaseline) {
      if (!p.frameworks.some((f) => controlsByDictionary.get(f.id)?.has(b.controlId))) {
        out.push(`${p.id}: control ${b.controlId} is in none of the profile's frameworks`);
      }
    }
  }
  return out;
}

export function profileEntry(id: string): ProfileEntry {
  const p = profileCatalogue().profiles.find((x) => x.id === id);
  if (!p) {
    throw new ApiError('validation_failed', `Unknown industry profile ${id}.`, [
      { field: 'profile', issue: 'invalid_value', message: `one of ${INDUSTRY_IDS.join(', ')}` },
    ]);
  }
  return p;
}

/** Frameworks of a profile by priority (file order within a priority), stable. */
export function byPriority<T extends { priority: number }>(items: readonly T[]): T[] {
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => a.item.priority - b.item.priority || a.i - b.i)
    .map((x) => x.item);
}

/** The assessments the profile's frameworks call for, one per type, in framework priority order. */
export function profileAssessments(p: ProfileEntry) {
  const out: { type: (typeof ASSESSMENT_TYPE_IDS)[number]; framework: string; why: string; priority: number }[] = [];
  for (const f of byPriority(p.frameworks)) {
    for (const a of profileCatalogue().frameworkAssessments) {
      if (a.framework === f.id && !out.some((o) => o.type === a.type)) out.push({ ...a, priority: f.priority });
    }
  }
  return out;
}

export interface ResolvedControl {
  framework: string;
  title: string;
  category: string;
}

/** Latest versions and short titles of the dictionaries, and the baseline controls resolved in them. */
export async function resolveProfile(shared: Tx, p: ProfileEntry) {
  const frameworks = await shared.framework.findMany({ where: { id: { in: p.frameworks.map((f) => f.id) } } });
  const fwById = new Map(frameworks.map((f) => [f.id, f]));
  const keys = frameworks.map((f) => `${f.id}@${f.latestVersion}`);
  const controls = await shared.frameworkControl.findMany({
    where: { versionKey: { in: keys }, id: { in: p.controlBaseline.map((b) => b.controlId) } },
  });
  const ctlById = new Map<string, ResolvedControl>(
    controls.map((c) => [c.id, { framework: c.versionKey.split('@')[0] as string, title: c.title, category: c.category }]),
  );
  const missing = [
    ...p.frameworks.filter((f) => !fwById.has(f.id)).map((f) => f.id),
    ...p.controlBaseline.filter((b) => !ctlById.has(b.controlId)).map((b) => b.controlId),
  ];
  // The file is checked against the shipped dictionaries by test; a content directory without them is a deployment error.
  if (missing.length > 0) throw new Error(`profile ${p.id} cites ids the loaded dictionaries lack: ${missing.join(', ')}`);
  return { fwById, ctlById };
}

export async function getProfile(shared: Tx, id: string): Promise<z.infer<typeof IndustryProfile>> {
  const p = profileEntry(id);
  const { fwById, ctlById } = await resolveProfile(shared, p);
  return {
    object: 'svc.profiles.profile',
    id: p.id,
    title: p.title,
    description: p.description,
    frameworks: byPriority(p.frameworks).map((f) => f.id),
    frameworkDetails: byPriority(p.frameworks).map((f) => {
      const fw = fwById.get(f.id);
      return {
        id: f.id,
        shortTitle: fw?.shortTitle ?? f.id,
        dictionaryVersion: `${f.id}@${fw?.latestVersion ?? ''}`,
        priority: f.priority,
        why: f.why,
      };
    }),
    controlBaseline: byPriority(p.controlBaseline).map((b) => {
      const c = ctlById.get(b.controlId) as ResolvedControl;
      return { controlId: b.controlId, framework: c.framework, title: c.title, category: c.category, priority: b.priority, why: b.why };
    }),
    assessments: profileAssessments(p).map(({ type, framework, why }) => ({ type, framework, why })),
    contentVersion: profileCatalogue().version,
  };
}

export function listProfiles(opts: { limit: number; cursor?: string }): {
  data: z.infer<typeof IndustryProfileSummary>[];
  cursor: string | null;
} {
  const after = decodeCursor(opts.cursor, 'number') ?? -1;
  const rows = profileCatalogue()
    .profiles.map((p) => ({ p, pos: INDUSTRY_IDS.indexOf(p.id) }))
    .sort((a, b) => a.pos - b.pos)
    .filter((r) => r.pos > after)
    .slice(0, opts.limit + 1);
  return toPage(
    rows,
    opts.limit,
    (r) => r.pos,
    ({ p }) => ({
      object: 'svc.profiles.profile_summary' as const,
      id: p.id,
      title: p.title,
      description: p.description,
      frameworks: byPriority(p.frameworks).map((f) => f.id),
      baselineControls: p.controlBaseline.length,
    }),
  );
}
