CREATE TABLE "concept_set_versions" (
	"concept_set_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"items" jsonb NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "concept_set_versions_concept_set_id_version_pk" PRIMARY KEY("concept_set_id","version")
);
--> statement-breakpoint
CREATE TABLE "concept_sets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"owner_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "query_concept_sets" (
	"query_id" uuid NOT NULL,
	"concept_set_id" uuid NOT NULL,
	"version" integer NOT NULL,
	CONSTRAINT "query_concept_sets_query_id_concept_set_id_version_pk" PRIMARY KEY("query_id","concept_set_id","version")
);
--> statement-breakpoint
ALTER TABLE "concept_set_versions" ADD CONSTRAINT "concept_set_versions_concept_set_id_concept_sets_id_fk" FOREIGN KEY ("concept_set_id") REFERENCES "public"."concept_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "concept_set_versions" ADD CONSTRAINT "concept_set_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "concept_sets" ADD CONSTRAINT "concept_sets_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "query_concept_sets" ADD CONSTRAINT "query_concept_sets_query_id_queries_id_fk" FOREIGN KEY ("query_id") REFERENCES "public"."queries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "query_concept_sets" ADD CONSTRAINT "query_concept_sets_concept_set_id_concept_sets_id_fk" FOREIGN KEY ("concept_set_id") REFERENCES "public"."concept_sets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "concept_sets_owner_idx" ON "concept_sets" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "concept_sets_updated_at_idx" ON "concept_sets" USING btree ("updated_at");--> statement-breakpoint
CREATE INDEX "query_concept_sets_set_idx" ON "query_concept_sets" USING btree ("concept_set_id");