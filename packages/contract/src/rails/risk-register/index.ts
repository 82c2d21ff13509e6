/**
 * The risk_register rail: risks scored on a 5x5 likelihood x impact matrix, treatments whose
 * implementation moves the residual score, score history, the heatmap, periodic reviews and the
 * accountable owner's sign-off. Residual values are always computed by the server from the
 * implemented treatments.
 */

export * from './routes.ts';
export * from './schemas.ts';
