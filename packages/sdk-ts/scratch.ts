import { setupServer } from 'msw/node';
import { createMockHandlers } from './src/msw.ts';
import { createSvcClient, isSvcError } from './src/index.ts';
const server = setupServer(...createMockHandlers());
server.listen({ onUnhandledRequest: 'error' });
const svc = createSvcClient({ baseUrl: 'http://mock.local', apiKey: 'svc_test_x' });
console.log(JSON.stringify(await svc.frameworks.list()).slice(0, 200));
console.log(JSON.stringify(await svc.operator.createKey({ body: { tenantId: 't', role: 'editor' } })));
console.log(JSON.stringify(await svc.operator.createTenant({ body: { name: 'x', tier: 'growth' } })));
console.log(JSON.stringify(await svc.compliance.getAssessment({ params: { id: 'asm_01JD3Z8W2M6Q4X9V7K5T1B0N3A' } })));
console.log(JSON.stringify(await svc.compliance.createAssessment({ body: { type: 'dpia', systemId: 'sys_x', jurisdiction: 'eu/fr', title: 'T' } })));
console.log(JSON.stringify(await svc.system.health()));
console.log(JSON.stringify(await svc.operator.revokeKey({ params: { id: 'key_x' } })));
console.log(JSON.stringify(await svc.frameworks.activate({ params: { id: 'eu-ai-act' } })));
try { await svc.compliance.createAssessment({ body: { type: 'dpia', jurisdiction: 'eu', extra: 1 } as any }); } catch (e) { console.log(isSvcError(e), e); }
try { await svc.compliance.listObligations({ query: { limit: 500 } }); } catch (e) { console.log(isSvcError(e), (e as any).details); }
const anon = createSvcClient({ baseUrl: 'http://mock.local', apiKey: '' });
try { await anon.frameworks.list(); } catch (e) { console.log(e); }
server.close();
