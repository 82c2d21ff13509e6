/** The whistleblower rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { whistleblowerEvents as events, whistleblowerRouter as router } from './routes.ts';
export const key = 'whistleblower';
