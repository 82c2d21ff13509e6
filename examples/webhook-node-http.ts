// Webhook receiver on bare node:http: collect the raw body, verify it, answer 204 or 400.
//   SVC_WEBHOOK_SECRET=whsec_... PORT=3000 node --import tsx examples/webhook-node-http.ts
import { createServer } from 'node:http';
import { WebhookVerificationError, webhooks } from '@svc/sdk';

const secret = process.env.SVC_WEBHOOK_SECRET ?? '';

const server = createServer(async (req, res) => {
  if (req.method !== 'POST' || req.url !== '/hooks/svc') {
    res.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const event = webhooks.verify(Buffer.concat(chunks), req.headers['x-svc-signature'] as string | undefined, secret);
    res.writeHead(204).end();
    console.log(`received ${event.type} ${event.id}`);
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    console.log(`refused ${err.reason}`);
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: err.reason }));
  }
});

server.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : address}`);
});
