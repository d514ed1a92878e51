CREATE TABLE "query_run_counters" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"run_times" timestamp with time zone[] NOT NULL
);
--> statement-breakpoint
ALTER TABLE "query_run_counters" ADD CONSTRAINT "query_run_counters_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The runs of the last 24 hours as earlier versions recorded them (saved runs, unsaved runs' audit
-- entries, cohort refreshes) carry over, so an upgrade does not hand anyone a fresh day's budget.
INSERT INTO "query_run_counters" ("user_id", "run_times")
SELECT r."user_id", array_agg(r."at" ORDER BY r."at")
FROM (
	SELECT "requested_by" AS "user_id", "created_at" AS "at" FROM "query_executions" WHERE "created_at" > now() - interval '1 day'
	UNION ALL
	SELECT "actor_id", "occurred_at" FROM "audit_log"
	WHERE "event_type" = 'QUERY_EXECUTED' AND "outcome" <> 'DENIED' AND "details" ->> 'anonymous' = 'true' AND "occurred_at" > now() - interval '1 day'
	UNION ALL
	SELECT "created_by", "created_at" FROM "cohort_versions" WHERE "origin" = 'REFRESH' AND "created_at" > now() - interval '1 day'
) r
WHERE r."user_id" IN (SELECT "id" FROM "users")
GROUP BY r."user_id";
