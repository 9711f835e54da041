// Request shapes of the free subscription routes, checked with zod, and their documentation.
import { z } from "zod";
import { EmailField } from "../../http/validate";

/** POST /api/users/free/subscribe/process: the e-mail to subscribe. */
export const SubscribeBody = z.object({ email: EmailField });

/**
 * The documentation of a free subscription route in its schema (the OpenAPI document): what it
 * answers (docs/api.md's Answers cell) and where it comes from (From).
 */
export const subscribeDoc = (description: string, from: string) => ({
  tags: ["Payments and free subscription"],
  description,
  "x-from": from,
});
