import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { meta } from '../../platform/meta.ts';
import { railRouter } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';
import { Code, FRAMEWORK_KINDS, JURISDICTION_LEVELS } from './fields.ts';
import {
  BundleHash,
  BundleRepin,
  EvidenceType,
  Jurisdiction,
  Regulator,
  RepinBody,
  RiskClass,
  TaxonomyClause,
  TaxonomyControl,
  TaxonomyFramework,
  TaxonomyRole,
} from './schemas.ts';

/** The taxonomy rail's resources and hand-declared routes, its router and the event types it emits. */

const DictionaryId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}$/)
  .meta({ description: 'Id of a framework dictionary (`gdpr`).', examples: ['gdpr'] });

/** `<dictionary>` or `<dictionary>@<version>`. */
const FrameworkFilter = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}(@\d+\.\d+\.\d+)?$/)
  .meta({
    description: 'A dictionary id (its latest version) or `<dictionary>@<version>` for a pinned version.',
    examples: ['eu-ai-act'],
  });

const { read, write } = policyOf('taxonomy');
const order = 'in content order, paginated by `limit` and `cursor` (`cursor` null on the last page)';

/** `GET <path>`: one page of reference data, the same for every tenant. */
function contentList<Q extends z.ZodObject, T extends z.ZodType>(path: string, query: Q, item: T, summary: string, description: string) {
  return get(path, { query }, listOf(item), read).doc(summary, description);
}

export const taxonomyRouter = railRouter('taxonomy', {
  frameworks: contentList(
    '/frameworks',
    PaginationQuery.extend({
      jurisdiction: Code.optional().meta({ description: 'Only dictionaries of this jurisdiction code.' }),
      kind: z.enum(FRAMEWORK_KINDS).optional().meta({ description: 'Only dictionaries of this kind.' }),
    }),
    TaxonomyFramework,
    'List the framework dictionaries with their versions and content hashes',
    `The dictionaries loaded, each at its latest version with every version available and its content hash, by id; ${order}. Reference data, the same for every tenant.`,
  ),
  controls: contentList(
    '/controls',
    PaginationQuery.extend({
      framework: FrameworkFilter.optional(),
      category: z.string().min(1).max(64).optional().meta({ description: 'Only controls of this category.' }),
    }),
    TaxonomyControl,
    'List the controls of the dictionaries',
    `Controls of every dictionary's latest version, or of one dictionary (\`framework=gdpr\` or \`gdpr@1.0.0\`), each naming its dictionary version; by dictionary, then ${order}. 404 for an unknown dictionary or version.`,
  ),
  clauses: contentList(
    '/clauses',
    PaginationQuery.extend({ framework: FrameworkFilter.optional() }),
    TaxonomyClause,
    'List the clauses of the dictionaries',
    `Clauses of every dictionary's latest version, or of one dictionary (\`framework=gdpr\` or \`gdpr@1.0.0\`), each naming its dictionary version; by dictionary, then ${order}. 404 for an unknown dictionary or version.`,
  ),
  evidenceTypes: contentList(
    '/evidence-types',
    PaginationQuery.extend({
      framework: DictionaryId.optional().meta({ description: 'Only evidence types a clause of this dictionary asks for.' }),
      kind: z.string().min(1).max(32).optional().meta({ description: 'Only evidence types filed under this evidence `kind`.' }),
    }),
    EvidenceType,
    'List evidence types',
    `Kinds of evidence with the evidence \`kind\` they are filed under and the clauses that ask for them, from the versioned taxonomy file \`taxonomy/evidence-types\`; ${order}.`,
  ),
  jurisdictions: contentList(
    '/jurisdictions',
    PaginationQuery.extend({
      parent: Code.optional().meta({ description: 'Only jurisdictions directly under this one (`eu`: the member states).' }),
      kind: z.enum(JURISDICTION_LEVELS).optional().meta({ description: 'Only jurisdictions of this level.' }),
    }),
    Jurisdiction,
    'List jurisdictions',
    `The EU and its member states, German Länder, the UK, the US and its states, Brazil, India and \`international\`, with codes and parents, from \`taxonomy/jurisdictions\`; ${order}.`,
  ),
  regulators: contentList(
    '/regulators',
    PaginationQuery.extend({
      jurisdiction: Code.optional().meta({
        description:
          'Only regulators of this jurisdiction or one inside it (`de` includes the Länder authorities, `eu` the member states).',
      }),
      framework: DictionaryId.optional().meta({ description: 'Only regulators of this dictionary.' }),
    }),
    Regulator,
    'List regulators',
    `Authorities with their jurisdiction and the dictionaries they supervise or enforce, from \`taxonomy/regulators\`; ${order}.`,
  ),
  riskClasses: contentList(
    '/risk-classes',
    PaginationQuery,
    RiskClass,
    'List the EU AI Act risk classes',
    `Prohibited, high, limited and minimal risk, general-purpose AI models with and without systemic risk, each with its articles (titled from the dictionary) and the date its obligations apply from, from \`taxonomy/risk-classes\`; ${order}.`,
  ),
  roles: contentList(
    '/roles',
    PaginationQuery.extend({
      framework: DictionaryId.optional().meta({ description: 'Only roles this dictionary defines.' }),
    }),
    TaxonomyRole,
    'List roles',
    `Provider, deployer, importer, controller, processor and the other parties the dictionaries assign duties to, with the defining clauses, from \`taxonomy/roles\`; ${order}.`,
  ),
  bundleHash: get('/bundle-hash', {}, BundleHash, meta({ ...read, source: { object: 'svc.taxonomy.bundle_hash' } })).doc(
    "The tenant's pinned content bundle hash",
    "The content address of the dictionary set the tenant is pinned to: SHA-256 of the canonical JSON of `{ <component>: { version, contentHash } }` over every dictionary's latest version and every taxonomy file, with the versions it names, and the current bundle beside it. The first read pins the current bundle for the tenant (recorded in the audit trail as `taxonomy.bundle_pinned`); afterwards the pin moves only through `POST /v1/taxonomy/bundle-hash/repin`.",
  ),
  repin: post('/bundle-hash/repin', { body: RepinBody.optional() }, BundleRepin, write('taxonomy.bundle_repinned')).doc(
    "Move the tenant's pin to the current content bundle",
    'Pins the current bundle and returns the old and new hash. When the pin already names the current bundle nothing is written (`changed: false`); otherwise a new pin is added to the history and recorded in the audit trail as `taxonomy.bundle_repinned` (with the reason), emitted as the webhook event of that name. With `expectedHash`, a current bundle that differs from it is 409 and nothing moves. Needs `taxonomy:write`.',
  ),
});

/** Event types the taxonomy rail emits. */
export const taxonomyEvents: ReturnType<typeof eventType>[] = [
  eventType('taxonomy.bundle_pinned', "The tenant's first read of the bundle hash pinned the current content bundle.", BundleRepin),
  eventType('taxonomy.bundle_repinned', "The tenant's content bundle pin moved to the current bundle.", BundleRepin),
];
