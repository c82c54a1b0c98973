/**
 * A team's anomaly detection when burnrate.yml says nothing of it (anomalies-schema.ts reads its
 * defaults here): apart from the schema, so that code building a team of its own (the unowned
 * instances' stand-in) does not load zod.
 */
export const ANOMALY_DEFAULTS = Object.freeze({ enabled: true, floor: 200, deviations: 3, windowDays: 28, minHistoryDays: 7 });
