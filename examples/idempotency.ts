// Idempotency: a retried POST with the same key (after a timeout, a crash, a redeploy) returns the
// first result instead of creating a second assessment.
import { randomUUID } from 'node:crypto';
import { createSvcClient } from '@svc/sdk';
import { apiKey, baseUrl } from './env.ts';

const svc = createSvcClient({ baseUrl, apiKey });
const idempotencyKey = `idk_${randomUUID()}`;
const body = { type: 'fria', systemId: 'sys_credit_scoring_v2', jurisdiction: 'eu/de' } as const;

const first = await svc.compliance.assessments.create({ body }, { idempotencyKey });
const retry = await svc.compliance.assessments.create({ body }, { idempotencyKey });
console.log(`first ${first.id}`);
console.log(`retry ${retry.id}`);
console.log(first.id === retry.id ? 'same assessment' : 'DIFFERENT assessments');
