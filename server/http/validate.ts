import { z } from "zod";
import { badRequest } from "../errors";

/** A normalised e-mail address: trimmed, lower case, checked (issue 3). */
export const EmailField = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email("is not a valid e-mail address"));

/**
 * Validates client input against a zod schema.
 * @returns the parsed value.
 * @throws AppError 400 whose message names the first failing field and rule.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join(".");
  throw badRequest(field ? `${field}: ${issue?.message}` : (issue?.message ?? "Invalid request."));
}
