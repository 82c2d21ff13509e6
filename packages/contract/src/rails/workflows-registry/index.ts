import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { railRouter, resource } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery, prefixedId } from '../../shared/common.ts';
import { CREATED_BY_KEY_DESCRIPTION, created, EXAMPLE_KEY, exampleId } from '../../shared/records.ts';

/**
 * The workflows registry: the catalogue of stock compliance workflows the service ships as data
 * (packages/server/content/workflows), read whole or filtered by framework, stakeholder role or
 * category, and versioned per tenant by hashed snapshots.
 */

const Slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/);

const FrameworkParam = Slug.meta({
  description: 'Id of a framework dictionary (`gdpr`, `eu-ai-act`, `nis2`); an id no workflow cites gives an empty list.',
  examples: ['gdpr'],
});
const RoleParam = Slug.meta({
  description: 'Stakeholder role, lowercase with hyphens (`dpo`, `ciso`, `legal-counsel`); a role no workflow names gives an empty list.',
  examples: ['dpo'],
});
const CategoryParam = Slug.meta({
  description: 'Workflow category (`privacy`, `ai-governance`, `incident`, ...); a category no workflow has gives an empty list.',
  examples: ['privacy'],
});
const WorkflowIdParam = Slug.meta({ description: 'Id of a stock workflow (`dpia`).', examples: ['dpia'] });

/** The requirement the example step satisfies: GDPR's clause on when a DPIA is required. */
const DPIA_REF_EXAMPLE = { framework: 'gdpr', kind: 'clause', ref: 'art-35-1', title: 'When a DPIA is required' };

export const StockWorkflowRef = z
  .object({
    framework: z.string().meta({ description: 'Id of the framework dictionary the reference belongs to (`gdpr`).' }),
    kind: z.enum(['clause', 'control']).meta({ description: 'A clause (`art-35-1`) or a control (`GDPR-DPIA-01`) of the dictionary.' }),
    ref: z.string().meta({ description: 'Clause reference or control id, as in the dictionary.' }),
    title: z
      .string()
      .nullable()
      .meta({ description: "Title of the clause or control in the dictionary's latest loaded version; null when that version lacks it." }),
  })
  .meta({
    id: 'StockWorkflowRef',
    description: 'A requirement of a shipped dictionary that the step helps satisfy.',
    examples: [DPIA_REF_EXAMPLE],
  });

export const StockWorkflowStep = z
  .object({
    position: z.int().min(1).meta({ description: 'Place of the step in the workflow, from 1.' }),
    key: z.string().meta({ description: 'Stable key of the step, unique within the workflow.' }),
    title: z.string().meta({ description: 'What the step does, as a short imperative.' }),
    owner: z.string().meta({ description: 'Stakeholder role that owns the step; one of the workflow’s `stakeholders`.' }),
    description: z.string().meta({ description: 'What the owner does in the step, in plain language.' }),
    refs: z.array(StockWorkflowRef).meta({ description: 'Clauses and controls of the shipped dictionaries the step satisfies.' }),
  })
  .meta({ id: 'StockWorkflowStep', description: 'One step of a workflow, in order.' });

export const StockWorkflow = z
  .object({
    object: z.literal('svc.workflows_registry.workflow').meta({
      description: 'Type of the object, constant for the schema; lets a client tell records apart in mixed lists.',
    }),
    id: z.string().meta({ description: 'Id of the stock workflow, lowercase with hyphens (`dpia`).' }),
    title: z.string().meta({ description: 'Human-readable title, free text, shown in lists.' }),
    category: z.string().meta({ description: 'Category the workflow belongs to (`privacy`, `ai-governance`, `incident`, ...).' }),
    description: z.string().meta({ description: 'What the workflow achieves, in plain language.' }),
    stakeholders: z.array(z.string()).meta({ description: 'Roles that take part in the workflow; every step owner is one of them.' }),
    frameworks: z
      .array(z.string())
      .meta({ description: 'Ids of the framework dictionaries the steps cite, sorted; each is a shipped dictionary.' }),
    steps: z.array(StockWorkflowStep).meta({ description: 'The steps, in the order they are carried out.' }),
    catalogueVersion: z.string().meta({ description: 'Version of the stock catalogue the workflow comes from.' }),
  })
  .meta({
    id: 'StockWorkflow',
    examples: [
      {
        object: 'svc.workflows_registry.workflow',
        id: 'dpia',
        title: 'Data protection impact assessment',
        category: 'privacy',
        description:
          'Screens a planned processing operation for high risk to individuals and, where needed, assesses necessity, proportionality and risks.',
        stakeholders: ['privacy-lead', 'dpo'],
        frameworks: ['gdpr'],
        steps: [
          {
            position: 1,
            key: 'screen',
            title: 'Screen the processing for high risk',
            owner: 'privacy-lead',
            description: 'Check the planned processing against the mandatory cases to decide whether a full assessment is needed.',
            refs: [DPIA_REF_EXAMPLE],
          },
        ],
        catalogueVersion: '1.0.0',
      },
    ],
  });

const ChangeList = z.array(z.string());
const EXAMPLE_NOTE = 'Baseline before the Q1 audit';

export const WorkflowSnapshot = z
  .object({
    object: z.literal('svc.workflows_registry.snapshot').meta({
      description: 'Type of the object, constant for the schema; lets a client tell records apart in mixed lists and webhook payloads.',
    }),
    id: prefixedId('wfs', exampleId('wfs')),
    version: z.int().min(1).meta({ description: 'Version of the snapshot for the tenant: 1 for the first, then one more than the last.' }),
    hash: z
      .string()
      .regex(/^[a-f0-9]{64}$/)
      .meta({ description: 'Lowercase hex SHA-256 of the canonical JSON (sorted keys, no spaces) of the stock catalogue file.' }),
    catalogueVersion: z.string().meta({ description: 'Version of the stock catalogue the snapshot was taken of.' }),
    workflowCount: z.int().min(0).meta({ description: 'Number of workflows in the catalogue.' }),
    workflows: z
      .array(
        z.object({
          id: z.string().meta({ description: 'Id of the workflow.' }),
          hash: z.string().meta({ description: 'Lowercase hex SHA-256 of the canonical JSON of that workflow.' }),
        }),
      )
      .meta({ description: 'Each workflow with its own hash, sorted by id: what the next snapshot compares with.' }),
    changes: z
      .object({
        since: z.int().nullable().meta({ description: 'Version of the previous snapshot compared with; null for the first.' }),
        added: ChangeList.meta({ description: 'Workflows not in the previous snapshot (all of them in the first).' }),
        removed: ChangeList.meta({ description: 'Workflows of the previous snapshot that are gone.' }),
        changed: ChangeList.meta({ description: 'Workflows in both whose hash differs.' }),
      })
      .meta({ description: 'What changed in the catalogue since the tenant’s previous snapshot.' }),
    note: z.string().nullable().meta({ description: 'Why the snapshot was taken; null when not given.' }),
    ...created(CREATED_BY_KEY_DESCRIPTION),
  })
  .meta({
    id: 'WorkflowSnapshot',
    examples: [
      {
        object: 'svc.workflows_registry.snapshot',
        id: exampleId('wfs'),
        version: 1,
        hash: 'a3f1c2e4b5d6978812345678901234567890abcdef1234567890abcdef123456',
        catalogueVersion: '1.0.0',
        workflowCount: 20,
        workflows: [{ id: 'dpia', hash: 'b4e2d3f5c6e7a89923456789012345678901bcdef2345678901bcdef23456789' }],
        changes: { since: null, added: ['dpia'], removed: [], changed: [] },
        note: EXAMPLE_NOTE,
        createdBy: EXAMPLE_KEY,
        createdAt: '2026-11-23T07:00:00.000Z',
      },
    ],
  });

export const CreateWorkflowSnapshotBody = z
  .strictObject({
    note: z.string().min(1).max(500).optional().meta({ description: 'Why the snapshot is taken, up to 500 characters.' }),
  })
  .meta({ id: 'CreateWorkflowSnapshotRequest', examples: [{ note: EXAMPLE_NOTE }] });

/** Audit action and webhook event type of a new snapshot. */
export const WORKFLOW_SNAPSHOT_ACTION = 'workflow_snapshot.created';

const { read, write } = policyOf('workflows_registry');

/** Snapshots: list and get from the kit; the create is hand-written (its version is taken under a lock). */
export const workflowSnapshots = resource({
  rail: 'workflows_registry',
  path: 'snapshot',
  name: 'snapshot',
  label: { one: 'workflow catalogue snapshot', many: 'workflow catalogue snapshots' },
  idPrefix: 'wfs',
  record: WorkflowSnapshot,
  setup: [{ method: 'POST', path: '/v1/workflows-registry/snapshot', body: {} }],
});

const StockWorkflowList = listOf(StockWorkflow);
const pageNote =
  'In id order, paginated by `limit` (1 to 200, default 50) and `cursor`. Reference data, the same for every tenant; needs `workflows_registry:read`.';

/** A page of the stock workflows that match `filter`, one required query parameter; `description` ends with the page note. */
function workflowsBy<const P extends string, const F extends z.ZodRawShape>(path: P, filter: F, summary: string, description: string) {
  return get(path, { query: PaginationQuery.extend(filter) }, StockWorkflowList, read).doc(summary, `${description} ${pageNote}`);
}

export const workflowsRegistryRouter = railRouter('workflows_registry', {
  catalog: {
    list: get(
      '/catalog',
      {
        query: PaginationQuery.extend({
          framework: FrameworkParam.optional(),
          role: RoleParam.optional(),
          category: CategoryParam.optional(),
        }),
      },
      StockWorkflowList,
      read,
    ).doc(
      'List the stock workflows',
      `The catalogue of stock compliance workflows: each with its category, stakeholder roles, the framework dictionaries it cites and its ordered steps with their owner and the clauses and controls they satisfy. Optional filters, combined with AND: \`framework\` (workflows citing that dictionary), \`role\` (workflows naming that stakeholder) and \`category\`; a well-formed value nothing matches gives an empty list, a malformed one a 422. ${pageNote}`,
    ),
    get: get('/catalog/:id', { pathParams: z.object({ id: WorkflowIdParam }) }, StockWorkflow, read).doc(
      'Get a stock workflow',
      'One workflow of the catalogue by its id (`dpia`). 404 for an id the catalogue does not have. Needs `workflows_registry:read`.',
    ),
  },
  byFramework: workflowsBy(
    '/by-framework',
    { framework: FrameworkParam },
    'List the stock workflows that cite a framework',
    'Workflows whose steps cite clauses or controls of the dictionary `framework` (required).',
  ),
  byStakeholder: workflowsBy(
    '/by-stakeholder',
    { role: RoleParam },
    'List the stock workflows a stakeholder role takes part in',
    'Workflows that name the stakeholder `role` (required), whether or not it owns a step.',
  ),
  byCategory: workflowsBy(
    '/by-category',
    { category: CategoryParam },
    'List the stock workflows of a category',
    'Workflows of the category `category` (required).',
  ),
  snapshot: {
    ...workflowSnapshots.routes,
    create: post('/snapshot', { body: CreateWorkflowSnapshotBody }, { 201: WorkflowSnapshot }, write(WORKFLOW_SNAPSHOT_ACTION)).doc(
      'Snapshot the workflow catalogue',
      "Records a versioned snapshot of the stock catalogue for the tenant: version one more than the tenant's last (1 for the first), the SHA-256 of the catalogue's canonical JSON, each workflow's own hash, and what was added, removed or changed since the previous snapshot. Returns 201 with the snapshot, id `wfs_<ULID>`. Needs `workflows_registry:write`; recorded in the audit trail as `workflow_snapshot.created` in the same transaction, and emitted as the webhook event `workflow_snapshot.created`. Send an `Idempotency-Key` so that a retry does not create a second snapshot.",
    ),
  },
});

/** Event types the workflows_registry rail emits. */
export const workflowsRegistryEvents = [
  eventType(WORKFLOW_SNAPSHOT_ACTION, 'A tenant recorded a versioned snapshot of the stock workflow catalogue.', WorkflowSnapshot),
];
