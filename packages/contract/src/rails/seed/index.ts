import { z } from 'zod';
import { get, policyOf, post } from '../../platform/declare.ts';
import { railRouter } from '../../platform/resource.ts';
import { eventType } from '../../platform/webhook-events.ts';
import { EXAMPLE_AT, EXAMPLE_KEY, exampleId } from '../../shared/records.ts';
import { Assessment, Evidence } from '../compliance/schemas.ts';
import { Activation } from '../frameworks/index.ts';

/**
 * The seed rail: demo data for sandbox tenants (the catalogue's `onlyTiers: ['sandbox']` makes
 * every other tier 403). Every write goes through the services the product rails use, so seeded
 * records are audited and webhook-emitting like hand-made ones. Nothing here creates tenants:
 * a sandbox key has no operator power.
 */

/** The `object` field of the seed rail's results (described without an example). */
const objectOf = <const T extends string>(name: T) => z.literal(name).meta({ description: 'Type of the object, constant for the schema.' });

const FrameworkId = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*(@\d+\.\d+\.\d+)?$/)
  .meta({ description: 'Framework dictionary id (`gdpr`), optionally with a version (`gdpr@1.0.0`).', examples: ['gdpr'] });

const FrameworkList = z
  .array(FrameworkId)
  .min(1)
  .max(10)
  .meta({
    description: 'Dictionaries to activate, at most 10; absent: the default demo set (`eu-ai-act`, `gdpr`).',
    examples: [['eu-ai-act', 'gdpr']],
  });

const SystemIdRef = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/)
  .meta({ description: 'Identifier of an AI system the demo records concern.', examples: ['sys_credit_scoring_v2'] });

export const SeedFrameworksBody = z
  .strictObject({ frameworks: FrameworkList.optional() })
  .meta({ id: 'SeedFrameworksRequest', examples: [{ frameworks: ['eu-ai-act', 'gdpr'] }, {}] });

export const SeedFrameworksResult = z
  .object({
    object: objectOf('svc.seed.frameworks'),
    activations: z
      .array(Activation)
      .meta({ description: 'One activation per requested dictionary, in request order (`alreadyActive` true for those active before).' }),
    activated: z.int().meta({ description: 'Dictionaries this call activated.' }),
    alreadyActive: z.int().meta({ description: 'Requested dictionaries that were already active (left as they were).' }),
    obligations: z.int().meta({ description: 'Obligations derived by the activations this call made.' }),
  })
  .meta({
    id: 'SeedFrameworksResult',
    examples: [
      {
        object: 'svc.seed.frameworks',
        activations: [
          {
            object: 'svc.frameworks.activation',
            id: exampleId('act'),
            framework: 'gdpr',
            dictionaryVersion: 'gdpr@1.0.0',
            activatedAt: EXAMPLE_AT,
            activatedBy: EXAMPLE_KEY,
            obligations: 108,
            alreadyActive: false,
          },
        ],
        activated: 1,
        alreadyActive: 0,
        obligations: 108,
      },
    ],
  });

export const SEED_EVIDENCE_MAX = 50;

export const SeedEvidenceBody = z
  .strictObject({
    count: z
      .int()
      .min(1)
      .max(SEED_EVIDENCE_MAX)
      .optional()
      .meta({ description: `How many evidence records to create, 1 to ${SEED_EVIDENCE_MAX}; 10 when absent.`, examples: [10] }),
    systemIds: z
      .array(SystemIdRef)
      .min(1)
      .max(10)
      .optional()
      .meta({
        description: 'Systems the records are spread over, in turn; absent: the demo systems.',
        examples: [['sys_credit_scoring_v2']],
      }),
  })
  .meta({ id: 'SeedEvidenceRequest', examples: [{ count: 10 }, {}] });

export const SeedEvidenceResult = z
  .object({
    object: objectOf('svc.seed.evidence'),
    created: z.int().meta({ description: 'Evidence records created.' }),
    evidence: z.array(Evidence).meta({ description: 'The created records, as `GET /v1/compliance/evidence/{id}` returns them.' }),
  })
  .meta({
    id: 'SeedEvidenceResult',
    examples: [
      {
        object: 'svc.seed.evidence',
        created: 1,
        // The compliance rail's own example of an evidence record, as GET returns it.
        evidence: Evidence.meta()?.examples ?? [],
      },
    ],
  });

export const SeedTenantBody = z
  .strictObject({
    frameworks: FrameworkList.optional(),
    assessments: z
      .int()
      .min(0)
      .max(10)
      .optional()
      .meta({ description: 'Assessments to create, 0 to 10; 3 when absent.', examples: [3] }),
    evidence: z
      .int()
      .min(0)
      .max(SEED_EVIDENCE_MAX)
      .optional()
      .meta({ description: `Evidence records to create, 0 to ${SEED_EVIDENCE_MAX}; 12 when absent.`, examples: [12] }),
  })
  .meta({ id: 'SeedTenantRequest', examples: [{ frameworks: ['eu-ai-act', 'gdpr'], assessments: 3, evidence: 12 }, {}] });

export const SeedTenantResult = z
  .object({
    object: objectOf('svc.seed.tenant'),
    tenantId: z.string().meta({ description: 'The calling tenant, the only one seeded.' }),
    frameworks: SeedFrameworksResult.meta({ description: 'What the framework step did.' }),
    assessments: z.array(Assessment).meta({ description: 'Assessments created, one per demo system in turn.' }),
    evidence: SeedEvidenceResult.meta({ description: 'What the evidence step did.' }),
  })
  .meta({
    id: 'SeedTenantResult',
    examples: [
      {
        object: 'svc.seed.tenant',
        tenantId: exampleId('ten'),
        frameworks: { object: 'svc.seed.frameworks', activations: [], activated: 0, alreadyActive: 0, obligations: 0 },
        assessments: [],
        evidence: { object: 'svc.seed.evidence', created: 0, evidence: [] },
      },
    ],
  });

export const SeedResetBody = z.strictObject({}).meta({ id: 'SeedResetRequest', examples: [{}] });

export const SeedReset = z
  .object({
    status: z.literal('reset').meta({ description: 'Always `reset`: the tenant data is gone.' }),
    deletedRecords: z.int().meta({ description: 'Rows deleted, all tables together; 0 when there was nothing left to delete.' }),
    tables: z
      .record(z.string(), z.int())
      .meta({ description: 'Rows deleted per table (model name), only tables with at least one row deleted.' }),
    auditEventId: z.string().meta({ description: 'Id of the `seed.reset` audit event that records the reset and its counts.' }),
    keptUnderLegalHold: z.record(z.string(), z.int()).optional().meta({
      description:
        'Rows kept per table (model name) because a litigation hold covers them, and the hold tables themselves; absent when nothing was held.',
    }),
  })
  .meta({
    id: 'SeedReset',
    examples: [
      {
        status: 'reset',
        deletedRecords: 231,
        tables: { obligation: 216, frameworkActivation: 2, evidence: 10, assessment: 3 },
        auditEventId: exampleId('aud'),
      },
    ],
  });

export const DemoTourStep = z.object({
  order: z.int().meta({ description: 'Position in the tour, from 1.' }),
  key: z.string().meta({ description: 'Stable key of the step (`activate-framework`).' }),
  title: z.string().meta({ description: 'What the user does, in a few words.' }),
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']).meta({ description: 'HTTP method of the real call.' }),
  path: z.string().meta({ description: 'Path of the real call, with its parameters filled in.' }),
  body: z.unknown().nullable().meta({ description: 'Request body to send; null for calls without a body.' }),
  shows: z.string().meta({ description: 'What the response shows the user about the product.' }),
  done: z.boolean().meta({ description: "Whether the tenant's data shows this step was already done." }),
});

export const DemoTour = z
  .object({
    object: objectOf('svc.seed.demo_tour'),
    steps: z.array(DemoTourStep).meta({ description: 'The walkthrough, in order.' }),
    completed: z.int().meta({ description: 'Steps already done.' }),
    total: z.int().meta({ description: 'Steps in the tour.' }),
    next: z.string().nullable().meta({ description: 'Key of the first step not yet done; null when all are.' }),
  })
  .meta({
    id: 'DemoTour',
    examples: [
      {
        object: 'svc.seed.demo_tour',
        steps: [
          {
            order: 1,
            key: 'activate-framework',
            title: 'Activate a framework',
            method: 'POST',
            path: '/v1/frameworks/eu-ai-act/activate',
            body: {},
            shows: 'The obligations the EU AI Act derives for the tenant.',
            done: false,
          },
        ],
        completed: 0,
        total: 1,
        next: 'activate-framework',
      },
    ],
  });

const { read, write } = policyOf('seed');

export const seedRouter = railRouter('seed', {
  tenants: post('/tenants', { body: SeedTenantBody }, SeedTenantResult, write('seed.tenant_seeded')).doc(
    'Seed demo content for the calling sandbox tenant',
    'Fills the calling sandbox tenant with coherent demo content: activates the frameworks (as `POST /v1/seed/frameworks`), creates assessments for the demo systems, then evidence citing controls of the activated frameworks (as `POST /v1/seed/evidence`). Every record is written through the product services, so each is audited and emits its webhook event. It seeds only the calling tenant and never creates tenants: a sandbox key has no operator power (tenants are created with `POST /v1/operator/tenants`). Needs `seed:write`; sandbox tenants only, others 403.',
  ),
  frameworks: post('/frameworks', { body: SeedFrameworksBody.optional() }, SeedFrameworksResult, write('framework.activated')).doc(
    'Activate demo frameworks',
    'Activates the chosen dictionaries (default `eu-ai-act` and `gdpr`) for the calling tenant through the same service as `POST /v1/frameworks/{id}/activate`: obligations are derived and each activation is audited as `framework.activated`. Dictionaries already active are left as they are. 404 for an unknown dictionary. Needs `seed:write`; sandbox tenants only, others 403.',
  ),
  evidence: post('/evidence', { body: SeedEvidenceBody.optional() }, SeedEvidenceResult, write('evidence.uploaded')).doc(
    'Create demo evidence',
    `Creates \`count\` (1 to ${SEED_EVIDENCE_MAX}, default 10) evidence records, each citing a control of a framework the tenant has activated (taken in dictionary order, spread across the activated frameworks) for a demo system, through the compliance evidence store: each is audited as \`evidence.uploaded\` and emits \`evidence.uploaded\`. 409 when the tenant has no activated framework (call \`POST /v1/seed/frameworks\` first). Needs \`seed:write\`; sandbox tenants only, others 403.`,
  ),
  reset: post('/reset', { body: SeedResetBody.optional() }, SeedReset, write('seed.reset')).doc(
    "Delete the tenant's data",
    'Deletes every row the calling tenant owns (frameworks activated, obligations, assessments, evidence, attestations, webhook subscriptions and deliveries, labels, workspaces, ...) except its audit trail (audit events, chain head and verification records), its event index (append-only like the audit trail), its API keys and the tenant itself, in one transaction, and returns the real count per table and in total (a second reset returns 0). The reset is recorded in the audit trail as `seed.reset` with the counts, so the trail still verifies. Needs `seed:write`; sandbox tenants only, others 403.',
  ),
  demoTour: get('/demo-tour', {}, DemoTour, read).doc(
    'A guided walkthrough of the product',
    "The ordered steps of a walkthrough for a new user, each a real call (method, path taken from the API contract, body built from the tenant's activated frameworks) with what it shows, and whether the tenant's data shows it was already done. Reads only. Needs `seed:read`; sandbox tenants only, others 403.",
  ),
});

/** Event types the seed rail emits. */
export const seedEvents = [
  eventType('seed.reset', "A sandbox tenant's data was reset.", SeedReset),
  eventType('seed.tenant_seeded', 'A sandbox tenant was filled with demo content.', SeedTenantResult),
];
