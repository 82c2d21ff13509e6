/** The webhooks rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { webhooksRouter as router } from './routes.ts';
export const key = 'webhooks';
