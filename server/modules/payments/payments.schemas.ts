// Request shapes of the payment routes (checkout), checked with zod.
import { z } from "zod";

/** POST /api/payment/checkout: the plan to buy. */
export const CheckoutBody = z.object({
  plan: z.string().trim().min(1, "The plan is required.").max(100, "The plan is not valid."),
});
