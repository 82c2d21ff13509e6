/**
 * The training-records rail: training modules required of organisational roles (people and roles
 * of the stakeholders rail), completion records, the coverage of each role (who is trained, who is
 * overdue; AI literacy under Art. 4 of the EU AI Act is the usual case) and a signed certificate per
 * completion that anyone holding its code can verify.
 */

export * from './routes.ts';
export * from './schemas.ts';
