// Webhook receiver on Express. The route takes the raw bytes: verification signs the body exactly
// as sent, and a parsed-then-reserialised copy would not match.
//   SVC_WEBHOOK_SECRET=whsec_... PORT=3000 node --import tsx examples/webhook-express.ts
import { WebhookVerificationError, webhooks } from '@svc/sdk';
import express from 'express';

const secret = process.env.SVC_WEBHOOK_SECRET ?? '';
const app = express();

app.post('/hooks/svc', express.raw({ type: 'application/json' }), (req, res) => {
  try {
    const event = webhooks.verify(req.body as Buffer, req.get('x-svc-signature'), secret);
    // Acknowledge first: slow processing would make the dispatcher retry the delivery.
    res.sendStatus(204);
    console.log(`received ${event.type} ${event.id}`);
  } catch (err) {
    if (!(err instanceof WebhookVerificationError)) throw err;
    console.log(`refused ${err.reason}`);
    res.status(400).json({ error: err.reason });
  }
});

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const address = server.address();
  console.log(`listening ${typeof address === 'object' && address ? address.port : address}`);
});
