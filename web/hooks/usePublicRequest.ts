// The request behind the public forms (contact, free subscription, recover password, sign-up's first step) and its toasts.
import { type UseMutationResult, useMutation } from "@tanstack/react-query";
import type { Envelope } from "../../common/api";
import { classifyFailure, type FailureKind } from "../api/failure";
import { succeed, warnPublic } from "../lib/notify";

/** What a public form's request shows beside the server's own message (product.md §8). */
export interface PublicRequestTexts {
  /** The success toast when an answer with success 1 carries no message. */
  sent: string;
  /** The warning toast when any other answer carries no message. */
  refused: string;
  /** The warning toast when no usable answer came (an error the API client has not shown already). */
  failure: (error: Error, kind: Exclude<FailureKind, "handled">) => string;
  /** When set, every error is also logged to the console under this label. */
  logAs?: string;
}

/**
 * A public form's request (`request` resolves to the server's envelope). product.md §8: success 1
 * → the server's message (else `texts.sent`) as a success toast, then `onSent` with the input;
 * any other success → the server's message (else `texts.refused`) as a warning toast; an error the
 * API client did not show → `texts.failure` as a warning toast. The global error toast is off
 * (`meta.silent`).
 */
export function usePublicRequest<TInput>(
  request: (input: TInput) => Promise<Envelope>,
  onSent: (input: TInput) => void,
  texts: PublicRequestTexts,
): UseMutationResult<Envelope, Error, TInput> {
  return useMutation({
    mutationFn: request,
    meta: { silent: true },
    onSuccess: (answer, input) => {
      if (answer.success === 1) {
        succeed(answer.message || texts.sent);
        onSent(input);
      } else {
        warnPublic(answer.message || texts.refused);
      }
    },
    onError: (error) => {
      if (texts.logAs !== undefined) console.error(texts.logAs, error);
      const kind = classifyFailure(error);
      if (kind !== "handled") warnPublic(texts.failure(error, kind));
    },
  });
}
