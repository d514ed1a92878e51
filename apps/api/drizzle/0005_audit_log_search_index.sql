-- Search over the audit log's messages and actors (the log viewer's search box), and the
-- event-type filter in log order.
CREATE INDEX IF NOT EXISTS audit_log_search_trgm_idx ON audit_log USING gin ((message || ' ' || coalesce(actor_email, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS audit_log_event_type_seq_idx ON audit_log (event_type, seq);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS audit_log_outcome_occurred_at_idx ON audit_log (outcome, occurred_at);
