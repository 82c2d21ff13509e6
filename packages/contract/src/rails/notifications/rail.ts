/** The notifications rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { notificationsEvents as events, notificationsRouter as router } from './routes.ts';
export const key = 'notifications';
