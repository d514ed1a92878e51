CREATE TABLE "cohort_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"cohort_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"origin" text NOT NULL,
	"query_version" integer NOT NULL,
	"execution_id" uuid,
	"person_count" integer NOT NULL,
	"dataset" text NOT NULL,
	"dataset_schema" text NOT NULL,
	"result" jsonb NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cohorts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"status" text DEFAULT 'DRAFT' NOT NULL,
	"query_id" uuid,
	"version" integer DEFAULT 1 NOT NULL,
	"person_count" integer NOT NULL,
	"author_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"published_by" uuid
);
--> statement-breakpoint
ALTER TABLE "query_executions" ADD COLUMN "dataset" text;--> statement-breakpoint
ALTER TABLE "cohort_versions" ADD CONSTRAINT "cohort_versions_cohort_id_cohorts_id_fk" FOREIGN KEY ("cohort_id") REFERENCES "public"."cohorts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cohort_versions" ADD CONSTRAINT "cohort_versions_execution_id_query_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."query_executions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cohort_versions" ADD CONSTRAINT "cohort_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cohorts" ADD CONSTRAINT "cohorts_query_id_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."queries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cohorts" ADD CONSTRAINT "cohorts_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cohorts" ADD CONSTRAINT "cohorts_published_by_users_id_fk" FOREIGN KEY ("published_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cohort_versions_cohort_version_key" ON "cohort_versions" USING btree ("cohort_id","version");--> statement-breakpoint
CREATE INDEX "cohorts_status_idx" ON "cohorts" USING btree ("status","updated_at");--> statement-breakpoint
CREATE INDEX "cohorts_author_idx" ON "cohorts" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "cohorts_tags_idx" ON "cohorts" USING gin ("tags");