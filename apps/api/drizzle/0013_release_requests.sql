CREATE TABLE "release_comments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"file_id" uuid,
	"author_id" uuid NOT NULL,
	"visibility" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "release_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	"notebook_id" uuid,
	"source_path" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"sha256" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"storage_key" text NOT NULL,
	"magnitude_column" text,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	"check_state" text DEFAULT 'PENDING' NOT NULL,
	"check_verdict" text,
	"check_findings" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"check_parameters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"checks_version" text,
	"checked_at" timestamp with time zone,
	"check_error" text
);
--> statement-breakpoint
CREATE TABLE "release_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"name" text NOT NULL,
	"context" text NOT NULL,
	"controls" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "release_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"workbench_id" uuid NOT NULL,
	"author_id" uuid NOT NULL,
	"title" text NOT NULL,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"required_reviews" integer NOT NULL,
	"round" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"submitted_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"package_key" text,
	"package_sha256" text,
	"package_size_bytes" bigint
);
--> statement-breakpoint
CREATE TABLE "release_reviews" (
	"request_id" uuid NOT NULL,
	"reviewer_id" uuid NOT NULL,
	"round" integer NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_reviews_request_id_reviewer_id_round_pk" PRIMARY KEY("request_id","reviewer_id","round")
);
--> statement-breakpoint
CREATE TABLE "release_votes" (
	"file_id" uuid NOT NULL,
	"reviewer_id" uuid NOT NULL,
	"vote" text NOT NULL,
	"comment" text,
	"voted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "release_votes_file_id_reviewer_id_pk" PRIMARY KEY("file_id","reviewer_id")
);
--> statement-breakpoint
ALTER TABLE "release_comments" ADD CONSTRAINT "release_comments_request_id_release_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."release_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_comments" ADD CONSTRAINT "release_comments_file_id_release_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."release_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_comments" ADD CONSTRAINT "release_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_files" ADD CONSTRAINT "release_files_request_id_release_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."release_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_files" ADD CONSTRAINT "release_files_group_id_release_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."release_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_files" ADD CONSTRAINT "release_files_notebook_id_notebooks_id_fk" FOREIGN KEY ("notebook_id") REFERENCES "public"."notebooks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_groups" ADD CONSTRAINT "release_groups_request_id_release_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."release_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_requests" ADD CONSTRAINT "release_requests_workbench_id_workbenches_id_fk" FOREIGN KEY ("workbench_id") REFERENCES "public"."workbenches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_requests" ADD CONSTRAINT "release_requests_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_reviews" ADD CONSTRAINT "release_reviews_request_id_release_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."release_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_reviews" ADD CONSTRAINT "release_reviews_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_votes" ADD CONSTRAINT "release_votes_file_id_release_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."release_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "release_votes" ADD CONSTRAINT "release_votes_reviewer_id_users_id_fk" FOREIGN KEY ("reviewer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "release_comments_request_idx" ON "release_comments" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "release_files_request_idx" ON "release_files" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "release_files_sha256_idx" ON "release_files" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "release_groups_request_idx" ON "release_groups" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "release_requests_workbench_idx" ON "release_requests" USING btree ("workbench_id","created_at");--> statement-breakpoint
CREATE INDEX "release_requests_state_idx" ON "release_requests" USING btree ("state");