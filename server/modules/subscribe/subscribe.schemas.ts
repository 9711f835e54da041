// Request shapes of the free subscription routes, checked with zod.
import { z } from "zod";
import { EmailField } from "../../http/validate";

/** POST /api/users/free/subscribe/process: the e-mail to subscribe. */
export const SubscribeBody = z.object({ email: EmailField });
