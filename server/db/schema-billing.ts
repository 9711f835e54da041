// The tables of plans and payments: the plans, payment providers' webhook events, free subscriptions by video comment.
import type { Generated } from "kysely";

export interface PlansTable {
  id: string;
  name: string;
  price_cents: number;
  description_html: string;
  url: string;
  image: string;
  /** Character creation limit (product.md §3: cl). */
  character_limit: number;
  /** Voice limit (product.md §3: vl, read but unused). */
  voice_limit: number;
  /** Photo upload allowed (product.md §3: pl). */
  photo_upload: number;
  /** Appearance and image generation allowed (product.md §3: il). */
  image_generation: number;
  /** Chat messages per quota period (product.md §1: free tier 15 a day). */
  message_limit: number;
  /** "day" or "month" (UTC calendar). */
  quota_period: Generated<string>;
  /** Uncensored replies allowed (a plan attribute; Premium Plus). */
  uncensored: Generated<number>;
  sort_order: number;
  /** Stripe recurring Price id (price_...) when the plan is sold through Checkout; '' otherwise. */
  stripe_price_id: Generated<string>;
}

export interface FreeSubscriptionsTable {
  id: string;
  email: string;
  /** The code the person comments on the video. */
  code: string;
  /** pending, verified, expired */
  status: string;
  expires_at: number;
  next_check_at: number;
  /** A worker holds the row until this time (durable job claim). */
  locked_until: number;
  checks: number;
  last_error: string;
  user_id: string | null;
  created_at: number;
}

/** A payment provider's webhook event, stored once (idempotency by the provider's event id). */
export interface PaymentEventsTable {
  id: string;
  provider: string;
  type: string;
  user_id: string | null;
  /** What the event did: "applied", "ignored" or a short reason. */
  outcome: string;
  /** The event as received (JSON). */
  payload: string;
  created_at: number;
}

/** The tables above, as the `Database` interface of server/db/schema.ts includes them. */
export interface BillingTables {
  plans: PlansTable;
  free_subscriptions: FreeSubscriptionsTable;
  payment_events: PaymentEventsTable;
}
