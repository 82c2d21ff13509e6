import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { buildVersions, readChangesets } from './changesets.ts';
import { clauseDates, compareSemver, FrameworkContent } from './framework-schema.ts';
import { contentGeneration, contentPath } from './paths.ts';

/**
 * The one statement of when a provision applies is its dictionary's: the `applicableFrom` of the
 * obligations citing its clause in the dictionary's latest version. A rail's data file that needs
 * such a date (the risk classes, the assessment recipes, the incident and DSAR regimes) names the
 * provision, `{ "dictionary": "nis2", "clause": "art-23-1" }`, and its schema reads the date here:
 * an amendment that moves the date in the dictionary moves it everywhere.
 */
export const ProvisionRef = z.strictObject({
  dictionary: z.string().regex(/^[a-z0-9][a-z0-9-]{1,63}$/),
  clause: z.string().min(1).max(64),
});
export type ProvisionRef = z.infer<typeof ProvisionRef>;

const latest = new Map<string, FrameworkContent>();
let changesets: ReturnType<typeof readChangesets> | undefined;
let generation = -1;

/** The latest version of one dictionary of the content folder in use, read once per content folder. */
function latestVersion(dictionary: string): FrameworkContent {
  if (generation !== contentGeneration()) {
    latest.clear();
    changesets = undefined;
    generation = contentGeneration();
  }
  const cached = latest.get(dictionary);
  if (cached) return cached;
  const dir = contentPath('frameworks');
  const file = join(dir, `${dictionary}.json`);
  if (!existsSync(file)) throw new Error(`no dictionary ${dictionary}`);
  const errors: string[] = [];
  const base = FrameworkContent.parse(JSON.parse(readFileSync(file, 'utf8')));
  changesets ??= readChangesets(dir, errors);
  const changes = changesets.filter((c) => c.data.dictionary === dictionary);
  const versions = buildVersions([{ file: `frameworks/${dictionary}.json`, content: base }], changes, errors);
  if (errors.length > 0) throw new Error(errors.join('; '));
  const last = versions
    .map((v) => v.content)
    .sort((a, b) => compareSemver(a.version, b.version))
    .at(-1) as FrameworkContent;
  latest.set(dictionary, last);
  return last;
}

/** The day a provision applies from, as its dictionary states it; an error unless its clause gives exactly one. */
export function provisionDate(ref: ProvisionRef): string {
  const dict = latestVersion(ref.dictionary);
  const dates = clauseDates(dict.obligations, ref.clause);
  if (dates.length !== 1)
    throw new Error(
      `${ref.dictionary}@${dict.version} ${ref.clause} gives ${dates.length === 0 ? 'no date (no obligation in force cites it)' : `${dates.length} dates (${dates.join(', ')})`}`,
    );
  return dates[0] as string;
}

/** A date of law in a data file: the provision named in the file, its dictionary's date once parsed. */
export const DictionaryDate = ProvisionRef.transform((ref, ctx) => {
  try {
    return provisionDate(ref);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: `the date of ${ref.dictionary}#${ref.clause}: ${(err as Error).message}` });
    return z.NEVER;
  }
});
