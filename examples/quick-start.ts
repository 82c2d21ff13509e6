// Quick start: create an assessment and list the framework dictionaries.
//   SVC_URL=http://127.0.0.1:8080 SVC_API_KEY=svc_test_... node --import tsx examples/quick-start.ts
import { createSvcClient } from '@svc/sdk';
import { apiKey, baseUrl } from './env.ts';

const svc = createSvcClient({ baseUrl, apiKey });

const assessment = await svc.compliance.assessments.create({
  body: { type: 'fria', systemId: 'sys_credit_scoring_v2', jurisdiction: 'eu/de' },
});
console.log(`created ${assessment.id} (${assessment.status})`);

const frameworks = await svc.frameworks.list();
for (const framework of frameworks.data) console.log(`framework ${framework.id}`);
