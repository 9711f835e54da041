// Request shapes of the site routes (the contact form, the console's site settings), checked with zod, and their documentation.
import { z } from "zod";
import { RULES } from "../../../common/validation";
import { EmailField, textField } from "../../http/validate";

/** product.md §5 "Contact": name, email, subject, message all required (rules of common/validation.ts). */
export const ContactBody = z.object({
  name: textField(RULES.contactName),
  email: EmailField,
  subject: textField(RULES.contactSubject),
  message: textField(RULES.contactMessage),
});

/** POST /api/admin/site: the guest demo on ("1") or off ("0"). */
export const SiteSettingsBody = z.object({
  demo: z
    .enum(["0", "1"])
    .describe("`0`/`1`")
    .transform((v) => v === "1"),
});

/**
 * The documentation of a site route in its schema (the OpenAPI document): its section of
 * docs/api.md's routes, what it answers (the Answers cell) and where it comes from (From).
 */
export const siteDoc = (section: "Site and public files" | "Admin", description: string, from = "ours") => ({
  tags: [section],
  description,
  "x-from": from,
});
