import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { meta } from '../../platform/meta.ts';
import { railRouter } from '../../platform/resource.ts';
import type { eventType } from '../../platform/webhook-events.ts';
import { listOf, PaginationQuery } from '../../shared/common.ts';

export const ONTOLOGY_LAYERS = [
  'authority',
  'obligation',
  'control',
  'evidence',
  'architecture',
  'policy',
  'audit',
  'ai-governance',
] as const;

const Layer = z.enum(ONTOLOGY_LAYERS).meta({
  description:
    'Layer of the node: `authority` (a dictionary and its publisher), `obligation`, `control`, `evidence`, `architecture` (a system), `policy` (policy-as-code), `audit` (audit trail), `ai-governance`.',
});

const NodeId = z
  .string()
  .min(3)
  .max(200)
  .regex(/^(authority|obligation|control|evidence|architecture|policy|audit|ai-governance):\S+$/)
  .meta({
    description:
      'Id of a node: `<layer>:<key>`. Keys: authority `<dictionary>`, obligation `<dictionary>/<obligation id>`, control `<control id>`, evidence `<evidence id>`, architecture `<system id>`, policy `<evidence id of kind policy>`, audit `<audit event id>`, ai-governance `<dictionary>/<control id>`.',
    examples: ['control:GDPR-SEC-01'],
  });

const DictionaryId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,63}$/)
  .meta({ description: 'Only nodes of this dictionary (`gdpr`).', examples: ['gdpr'] });

/** The description of the ontology records' `object` field. */
const OBJECT_DESCRIPTION = 'Type of the object, constant for the schema.';

/** The example node: a GDPR control, linked to its authority and one obligation. */
const CONTROL_NODE_EXAMPLE = {
  object: 'svc.ontology.node',
  id: 'control:GDPR-SEC-01',
  layer: 'control',
  key: 'GDPR-SEC-01',
  title: 'Risk-based security programme',
  framework: 'gdpr',
  attributes: { clauseRefs: ['art-32'], category: 'security' },
  links: ['authority:gdpr', 'obligation:gdpr/GDPR-OBL-012'],
};

export const OntologyNode = z
  .object({
    object: z.literal('svc.ontology.node').meta({ description: OBJECT_DESCRIPTION }),
    id: z.string().meta({ description: 'Id of the node: `<layer>:<key>`.' }),
    layer: Layer,
    key: z.string().meta({ description: 'Key of the node within its layer.' }),
    title: z.string().meta({ description: 'Human-readable title of the node.' }),
    framework: z.string().nullable().meta({ description: 'Dictionary the node belongs to; null for tenant nodes not tied to one.' }),
    attributes: z.record(z.string(), z.union([z.string(), z.array(z.string()), z.null()])).meta({
      description: 'Layer-specific facts: publisher and jurisdiction of an authority, clause references, evidence kind, audit action.',
    }),
    links: z.array(z.string()).meta({ description: 'Ids of the nodes this node links to directly, in any layer.' }),
  })
  .meta({ id: 'OntologyNode', examples: [CONTROL_NODE_EXAMPLE] });

const Reached = OntologyNode.extend({
  path: z.array(z.string()).meta({ description: 'Node ids walked from the start node to this one, both included.' }),
});

export const OntologyResolution = z
  .object({
    object: z.literal('svc.ontology.resolution').meta({ description: OBJECT_DESCRIPTION }),
    node: OntologyNode,
    layers: z.record(z.string(), z.array(Reached)).meta({
      description:
        'Nodes reached, grouped by layer (every layer other than the start node’s one that the walk reaches), each with its path.',
    }),
  })
  .meta({
    id: 'OntologyResolution',
    examples: [
      {
        object: 'svc.ontology.resolution',
        node: { ...CONTROL_NODE_EXAMPLE, attributes: {}, links: ['authority:gdpr'] },
        layers: {
          authority: [
            {
              object: 'svc.ontology.node',
              id: 'authority:gdpr',
              layer: 'authority',
              key: 'gdpr',
              title: 'General Data Protection Regulation',
              framework: 'gdpr',
              attributes: { publisher: 'European Union', jurisdiction: 'eu' },
              links: [],
              path: ['control:GDPR-SEC-01', 'authority:gdpr'],
            },
          ],
        },
      },
    ],
  });

const publicRead = meta({ auth: 'public', rail: 'ontology', mutating: false });
const { read } = policyOf('ontology');
const FrameworkQuery = PaginationQuery.extend({ framework: DictionaryId.optional() });

const DICT =
  'Built from the latest version of every shipped dictionary; public: no token is needed and no tenant data is shown. Sorted by node id, paginated by `limit` and `cursor`.';
const TENANT =
  "Built from the calling tenant's records at the time of the call; needs a tenant API key (401 without). Sorted by node id, paginated by `limit` and `cursor`.";

/** `GET <path>`: one page of nodes of a layer. */
function nodeList<Q extends typeof PaginationQuery | typeof FrameworkQuery, M extends typeof publicRead | typeof read>(
  path: string,
  query: Q,
  summary: string,
  description: string,
  metadata: M,
) {
  return get(path, { query }, listOf(OntologyNode), metadata).doc(summary, description);
}

export const ontologyRouter = railRouter('ontology', {
  authorities: nodeList(
    '/authorities',
    PaginationQuery,
    'Authority nodes: the dictionaries and who publishes them',
    `One node \`authority:<dictionary>\` per dictionary, with publisher, jurisdiction, kind and version, linked to its obligations and controls (and AI-governance nodes for AI dictionaries). ${DICT}`,
    publicRead,
  ),
  obligations: nodeList(
    '/obligations',
    FrameworkQuery,
    'Obligation nodes of the dictionaries',
    `One node \`obligation:<dictionary>/<obligation id>\` per dictionary obligation, with its clause, linked to its authority and to the controls of the same dictionary whose clause references include that clause. ${DICT}`,
    publicRead,
  ),
  controls: nodeList(
    '/controls',
    FrameworkQuery,
    'Control nodes of the dictionaries',
    `One node \`control:<control id>\` per dictionary control, with its clause references, linked to its authority, to the obligations sharing its clauses and, for AI dictionaries (eu-ai-act, iso-iec-42001, nist-ai-rmf, colorado-ai-act), to its \`ai-governance\` node. Links to tenant evidence are not shown here. ${DICT}`,
    publicRead,
  ),
  evidence: nodeList(
    '/evidence',
    PaginationQuery,
    "Evidence nodes: the tenant's evidence records",
    `One node \`evidence:<evidence id>\` per evidence record, linked to the controls it cites, its system (\`architecture:<system id>\`), its policy-as-code node when of kind \`policy\`, and the audit events on it. ${TENANT}`,
    read,
  ),
  architecture: nodeList(
    '/architecture',
    PaginationQuery,
    "Architecture nodes: the systems the tenant's evidence and assessments name",
    `One node \`architecture:<system id>\` per system named by the tenant's evidence or assessments, linked to that evidence and the audit events on the system; the assessment ids are in its attributes. ${TENANT}`,
    read,
  ),
  policies: nodeList(
    '/policies',
    PaginationQuery,
    "Policy-as-code nodes: the tenant's evidence of kind policy",
    `One node \`policy:<evidence id>\` per evidence record of kind \`policy\`, linked to that evidence record and the controls it cites. ${TENANT}`,
    read,
  ),
  resolve: get('/resolve', { query: z.object({ node: NodeId }) }, OntologyResolution, read).doc(
    'Walk from a node to the linked nodes of every other layer',
    "Walks the links from the node (breadth first, up to 4 steps) across the dictionary layers and the calling tenant's layers, and returns the nodes reached grouped by layer, each with the path walked. Authority nodes are reached but not walked through (they link to everything of their dictionary), and nodes of the start node's own layer are not walked through. Needs a tenant API key, because the answer includes the tenant's evidence, systems, policies and audit events. 404 for an unknown node.",
  ),
  resolvePost: post(
    '/resolve',
    { body: z.strictObject({ node: NodeId }).meta({ id: 'OntologyResolveRequest', examples: [{ node: 'control:GDPR-SEC-01' }] }) },
    OntologyResolution,
    read,
  ).doc(
    'Walk from a node to the linked nodes of every other layer (body form)',
    'The same walk as `GET /v1/ontology/resolve`, with the node id in the body. Reads only; changes nothing.',
  ),
});

/** Event types the ontology rail emits. */
export const ontologyEvents: ReturnType<typeof eventType>[] = [];
