-- Every tenant record with an id is found by (tenant_id, id) through an index: the kit's get,
-- transitions and cursor lists, and the conformance suite's static check, rely on it.
CREATE INDEX "agent_dispatches_tenant_id_id_idx" ON "agent_dispatches"("tenant_id", "id");
CREATE INDEX "api_keys_tenant_id_id_idx" ON "api_keys"("tenant_id", "id");
CREATE INDEX "audit_events_tenant_id_id_idx" ON "audit_events"("tenant_id", "id");
CREATE INDEX "event_index_tenant_id_id_idx" ON "event_index"("tenant_id", "id");
CREATE INDEX "framework_activations_tenant_id_id_idx" ON "framework_activations"("tenant_id", "id");
CREATE INDEX "inbound_events_tenant_id_id_idx" ON "inbound_events"("tenant_id", "id");
CREATE INDEX "reconciliation_runs_tenant_id_id_idx" ON "reconciliation_runs"("tenant_id", "id");
CREATE INDEX "webhook_attempts_tenant_id_id_idx" ON "webhook_attempts"("tenant_id", "id");
CREATE INDEX "webhook_events_tenant_id_id_idx" ON "webhook_events"("tenant_id", "id");
