// Request shapes of the public site routes (the contact form), checked with zod.
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
  demo: z.enum(["0", "1"]).transform((v) => v === "1"),
});
