/** The marketplace rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { marketplaceEvents as events, marketplaceRouter as router } from './routes.ts';
export const key = 'marketplace';
