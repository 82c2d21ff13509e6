// Pagination: `paginate` follows the cursors, so the loop sees every obligation, one page at a time.
import { createSvcClient } from '@svc/sdk';
import { apiKey, baseUrl } from './env.ts';

const svc = createSvcClient({ baseUrl, apiKey });
await svc.frameworks.activate({ params: { id: 'eu-ai-act' } });

let count = 0;
for await (const obligation of svc.paginate(svc.compliance.obligations.list, { query: { limit: 50 } })) {
  if (count < 3) console.log(`obligation ${obligation.id}`);
  count++;
}
console.log(`total ${count}`);
