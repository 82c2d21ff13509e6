/** The training records rail's declaration, as the rails index lists it (`RailDeclaration`, platform/rail.ts). */
export { trainingRecordsEvents as events, trainingRecordsRouter as router } from './routes.ts';
export const key = 'training_records';
