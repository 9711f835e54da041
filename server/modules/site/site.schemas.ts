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
