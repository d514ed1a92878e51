-- Indexes for the users list at scale (100,000+ users): trigram search over email and name,
-- prefix search for short terms, the roles filter, and the sort orders with their tie-breaker.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_search_trgm_idx ON users USING gin ((email || ' ' || coalesce(name, '')) gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_email_prefix_idx ON users (email text_pattern_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_name_prefix_idx ON users (lower(name) text_pattern_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_roles_gin_idx ON users USING gin (roles);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_name_id_idx ON users (name, id);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS users_created_at_id_idx ON users (created_at, id);
