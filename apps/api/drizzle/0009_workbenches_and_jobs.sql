CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"subject" text,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 1 NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"error" text,
	"lease_until" timestamp with time zone,
	"heartbeat_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notebooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workbench_id" uuid NOT NULL,
	"owner_id" uuid NOT NULL,
	"name" text NOT NULL,
	"environment" text NOT NULL,
	"zone" text NOT NULL,
	"machine_type" text NOT NULL,
	"accelerator_type" text,
	"accelerator_count" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'PROVISIONING' NOT NULL,
	"status_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workbench_cohorts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workbench_id" uuid NOT NULL,
	"cohort_id" uuid NOT NULL,
	"cohort_version_id" uuid NOT NULL,
	"cohort_version" integer NOT NULL,
	"directory" text NOT NULL,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"error" text,
	"row_counts" jsonb,
	"released_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workbench_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workbench_id" uuid NOT NULL,
	"source_document_id" uuid,
	"name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"storage_key" text NOT NULL,
	"copied_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workbench_members" (
	"workbench_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workbench_members_workbench_id_user_id_pk" PRIMARY KEY("workbench_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "workbench_queries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workbench_id" uuid NOT NULL,
	"source_query_id" uuid,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"query" jsonb NOT NULL,
	"file_name" text NOT NULL,
	"copied_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workbenches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"purpose" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid NOT NULL,
	"updated_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notebooks" ADD CONSTRAINT "notebooks_workbench_id_workbenches_id_fk" FOREIGN KEY ("workbench_id") REFERENCES "public"."workbenches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notebooks" ADD CONSTRAINT "notebooks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbench_cohorts" ADD CONSTRAINT "workbench_cohorts_workbench_id_workbenches_id_fk" FOREIGN KEY ("workbench_id") REFERENCES "public"."workbenches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbench_cohorts" ADD CONSTRAINT "workbench_cohorts_cohort_id_cohorts_id_fk" FOREIGN KEY ("cohort_id") REFERENCES "public"."cohorts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbench_cohorts" ADD CONSTRAINT "workbench_cohorts_cohort_version_id_cohort_versions_id_fk" FOREIGN KEY ("cohort_version_id") REFERENCES "public"."cohort_versions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbench_documents" ADD CONSTRAINT "workbench_documents_workbench_id_workbenches_id_fk" FOREIGN KEY ("workbench_id") REFERENCES "public"."workbenches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbench_documents" ADD CONSTRAINT "workbench_documents_source_document_id_documents_id_fk" FOREIGN KEY ("source_document_id") REFERENCES "public"."documents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbench_members" ADD CONSTRAINT "workbench_members_workbench_id_workbenches_id_fk" FOREIGN KEY ("workbench_id") REFERENCES "public"."workbenches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbench_members" ADD CONSTRAINT "workbench_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbench_queries" ADD CONSTRAINT "workbench_queries_workbench_id_workbenches_id_fk" FOREIGN KEY ("workbench_id") REFERENCES "public"."workbenches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbench_queries" ADD CONSTRAINT "workbench_queries_source_query_id_queries_id_fk" FOREIGN KEY ("source_query_id") REFERENCES "public"."queries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbenches" ADD CONSTRAINT "workbenches_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbenches" ADD CONSTRAINT "workbenches_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_state_idx" ON "jobs" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "jobs_subject_idx" ON "jobs" USING btree ("subject");--> statement-breakpoint
CREATE INDEX "notebooks_workbench_idx" ON "notebooks" USING btree ("workbench_id");--> statement-breakpoint
CREATE UNIQUE INDEX "workbench_cohorts_workbench_cohort_key" ON "workbench_cohorts" USING btree ("workbench_id","cohort_id");--> statement-breakpoint
CREATE INDEX "workbench_documents_workbench_idx" ON "workbench_documents" USING btree ("workbench_id");--> statement-breakpoint
CREATE INDEX "workbench_members_user_idx" ON "workbench_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "workbench_queries_workbench_idx" ON "workbench_queries" USING btree ("workbench_id");--> statement-breakpoint
CREATE INDEX "workbenches_updated_at_idx" ON "workbenches" USING btree ("updated_at");--> statement-breakpoint
-- Query runs queued before the jobs table existed get their job, so they still run.
INSERT INTO "jobs" ("kind", "payload", "subject") SELECT 'query-run', jsonb_build_object('executionId', "id"), "id"::text FROM "query_executions" WHERE "status" = 'PENDING';
