CREATE TABLE "notebook_egress_holds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"notebook_id" uuid NOT NULL,
	"workbench_id" uuid NOT NULL,
	"bytes" bigint NOT NULL,
	"limit_bytes" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lifted_at" timestamp with time zone,
	"lifted_by" uuid
);
--> statement-breakpoint
ALTER TABLE "notebook_egress_holds" ADD CONSTRAINT "notebook_egress_holds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notebook_egress_holds" ADD CONSTRAINT "notebook_egress_holds_lifted_by_users_id_fk" FOREIGN KEY ("lifted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notebook_egress_holds_user_idx" ON "notebook_egress_holds" USING btree ("user_id");