import { join } from 'node:path';
import { RECIPES, unresolvedRecipeReferences } from '../rails/compliance/recipes.ts';
import { DSAR_RULES, type DsarRules } from '../rails/dsar/clocks.ts';
import { GPAI_TEMPLATE, type GpaiTemplateData } from '../rails/gpai-summary/service.ts';
import { REGIME_RULES, type RegimeRules } from '../rails/incident-disclosures/clocks.ts';
import { PROFILES_PATH, readProfileCatalogue, unresolvedReferences as unresolvedProfileReferences } from '../rails/profiles/service.ts';
import { RED_TEAM_CORPUS, type RedTeamCorpus } from '../rails/red-team/corpus.ts';
import { REPORT_CATALOGUE } from '../rails/reporting/compose.ts';
import { readTaxonomy, unresolvedReferences as unresolvedTaxonomyReferences } from '../rails/taxonomy/service.ts';
import { checkCatalogueRefs, readCatalogue, STOCK_WORKFLOWS_PATH } from '../rails/workflows-registry/service.ts';
import { CONTENT_ROOT, type ContentSet, contentHash, LOCK_FILE, readContent, readLock } from './check.ts';
import type { DataFile } from './data-file.ts';
import { compareSemver, type FrameworkContent } from './frameworks.ts';

/**
 * The rails' data files beside the dictionaries: industry profiles, stock workflows, the
 * taxonomy's reference lists and the incident regimes' notification clocks. Each is checked by
 * the schema its rail loads it with, its references are resolved against the dictionaries, and
 * its content is pinned in the lock like a dictionary's: a changed file needs a new `version`.
 */
export interface RailDataReport {
  errors: string[];
  warnings: string[];
  /** `<kind>/<id>@<version>` -> hash, for the lock. */
  hashes: Record<string, string>;
  /** One line per file for the summary: key and item count. */
  files: { key: string; items: number }[];
}

function latestDictionaries(set: ContentSet): FrameworkContent[] {
  const latest = new Map<string, FrameworkContent>();
  for (const { data: f } of set.frameworks) {
    const cur = latest.get(f.id);
    if (!cur || compareSemver(f.version, cur.version) > 0) latest.set(f.id, f);
  }
  return [...latest.values()];
}

/** The data files checked by their schema alone, with what counts as an item of each. */
const SELF_CHECKED: { file: DataFile<{ version: string }>; items: (data: never) => number }[] = [
  { file: REGIME_RULES, items: (d: RegimeRules) => d.regimes.length },
  { file: DSAR_RULES, items: (d: DsarRules) => d.regimes.length },
  { file: GPAI_TEMPLATE, items: (d: GpaiTemplateData) => d.sections.length },
  { file: RED_TEAM_CORPUS, items: (d: RedTeamCorpus) => d.probes.length },
  { file: REPORT_CATALOGUE, items: (d: { types: unknown[] }) => d.types.length },
];

export function checkRailData(root = CONTENT_ROOT, opts: { strict?: boolean } = {}): RailDataReport {
  const errors: string[] = [];
  const warnings: string[] = [];
  const hashes: Record<string, string> = {};
  const files: RailDataReport['files'] = [];
  const dictionaries = latestDictionaries(readContent(root));
  const attempt = <T>(file: string, read: () => T): T | undefined => {
    try {
      return read();
    } catch (err) {
      errors.push(`${file}: ${(err as Error).message.replace(`${root}/`, '')}`);
      return undefined;
    }
  };

  const profiles = attempt(PROFILES_PATH, () => readProfileCatalogue(join(root, PROFILES_PATH)));
  if (profiles) {
    const controls = new Map(dictionaries.map((d) => [d.id, new Set(d.controls.map((c) => c.id))]));
    for (const p of unresolvedProfileReferences(profiles, controls)) errors.push(`${PROFILES_PATH}: ${p}`);
    hashes[`profiles/industry-profiles@${profiles.version}`] = contentHash(profiles);
    files.push({ key: `profiles/industry-profiles@${profiles.version}`, items: profiles.profiles.length });
  }

  const workflows = attempt(STOCK_WORKFLOWS_PATH, () => readCatalogue(join(root, STOCK_WORKFLOWS_PATH)));
  if (workflows) {
    const refs = dictionaries.map((d) => ({
      id: d.id,
      clauses: new Set(d.clauses.map((c) => c.ref)),
      controls: new Set(d.controls.map((c) => c.id)),
    }));
    for (const p of checkCatalogueRefs(workflows, refs)) errors.push(`${STOCK_WORKFLOWS_PATH}: ${p}`);
    hashes[`workflows/stock-workflows@${workflows.version}`] = contentHash(workflows);
    files.push({ key: `workflows/stock-workflows@${workflows.version}`, items: workflows.workflows.length });
  }

  const recipes = attempt(RECIPES.path, () => RECIPES.read(join(root, RECIPES.path)));
  if (recipes) {
    const clauses = new Map(dictionaries.map((d) => [d.id, new Set(d.clauses.map((c) => c.ref))]));
    for (const p of unresolvedRecipeReferences(recipes, clauses)) errors.push(`${RECIPES.path}: ${p}`);
    hashes[`assessments/recipes@${recipes.version}`] = contentHash(recipes);
    files.push({ key: `assessments/recipes@${recipes.version}`, items: recipes.recipes.length });
  }

  const taxonomy = attempt('taxonomy', () => readTaxonomy(join(root, 'taxonomy')));
  if (taxonomy) {
    const facts = new Map(
      dictionaries.map((d) => [
        d.id,
        { clauses: new Set(d.clauses.map((c) => c.ref)), actors: new Set(d.obligations.map((o) => o.actor)), jurisdiction: d.jurisdiction },
      ]),
    );
    for (const p of unresolvedTaxonomyReferences(taxonomy, facts)) errors.push(`taxonomy: ${p}`);
    for (const [name, file] of Object.entries(taxonomy)) {
      // The file as read, without the hash the taxonomy service adds to it.
      const { contentHash: _served, ...data } = file;
      const key = `taxonomy/${name}@${data.version}`;
      hashes[key] = contentHash(data);
      files.push({ key, items: data.items.length });
    }
  }

  // Data files whose checks are all in their schema: read, hashed and counted alike.
  for (const { file, items } of SELF_CHECKED) {
    const data = attempt(file.path, () => file.read(join(root, file.path)));
    if (!data) continue;
    const key = `${file.path.replace(/\.json$/, '')}@${data.version}`;
    hashes[key] = contentHash(data);
    files.push({ key, items: items(data as never) });
  }

  const lock = readLock(root);
  for (const [key, hash] of Object.entries(hashes)) {
    const locked = lock[key];
    if (locked && locked !== hash) errors.push(`${key}: content changed without a new version (bump "version")`);
    if (!locked) (opts.strict ? errors : warnings).push(`${key} is not in ${LOCK_FILE} yet (pnpm content:lock records it)`);
  }
  return { errors, warnings, hashes, files };
}
