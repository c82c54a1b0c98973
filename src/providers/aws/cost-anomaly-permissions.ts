/** The IAM actions reading anomalies and answering them take (apart from the client, so the face loads no SDK). */
export const COST_ANOMALY_PERMISSIONS = ['ce:GetAnomalies', 'ce:ProvideAnomalyFeedback'] as const;
