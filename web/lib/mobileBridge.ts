// The mobile app wrapper's bridge for voice chat (product.md §4 "Voice chat"): listening through the native recognizer.
/**
 * The mobile-wrapper bridge of voice chat (product.md §4 "Voice chat": in a mobile app wrapper the
 * wrapper's listener is used). A native app that shows the SPA in a WebView can do
 * the listening itself (its platform's speech recognizer) instead of the browser's
 * SpeechRecognition or the server's transcription.
 *
 * Page → wrapper: the wrapper injects, before the page's scripts run,
 *
 *     window.CompanionBridge = { postMessage(message: string): void }
 *
 * (Android: `addJavascriptInterface(obj, "CompanionBridge")`; iOS: a user script forwarding to
 * `webkit.messageHandlers`). The page sends JSON strings:
 *   - `{"type":"startListening","language":"en","silenceMs":2000}`: open the microphone now,
 *     recognise speech in `language` (the character's), end after `silenceMs` of silence;
 *   - `{"type":"stopListening"}`: close it without a result (the user stopped voice chat).
 *
 * Wrapper → page: a `message` event on `window` (e.g. `evaluateJavascript("window.postMessage(
 * {...}, '*')")`, or Android's `postWebMessage`), its `data` an object or the same as a JSON string:
 *   - `{ "type": "companion:listening" }`: the microphone is open (optional);
 *   - `{ "type": "companion:speaking" }`: speech was heard (optional);
 *   - `{ "type": "companion:transcript", "text": "..." }`: the final words, "" when nothing was
 *     said (voice chat then sends 'listening', product.md §5); this ends the listening;
 *   - `{ "type": "companion:error", "error": "not-allowed" | "..." }`: listening failed.
 * Messages of other shapes, or from other windows (frames), are ignored.
 */

/** What the wrapper injects as `window.CompanionBridge`. */
export interface CompanionBridge {
  postMessage(message: string): void;
}

/** Handlers of one listening session through the wrapper. */
export interface WrapperListenHandlers {
  onListening?: () => void;
  onSpeaking?: () => void;
  /** The final transcript ("" when nothing was heard); the session is over. */
  onTranscript: (text: string) => void;
  /** The wrapper could not listen (`error` as it says, e.g. "not-allowed"); the session is over. */
  onError: (error: string) => void;
}

/** The wrapper's bridge when the SPA runs inside the mobile app, else undefined. */
export function mobileBridge(): CompanionBridge | undefined {
  if (typeof window === "undefined") return undefined;
  const bridge = (window as unknown as { CompanionBridge?: Partial<CompanionBridge> }).CompanionBridge;
  return typeof bridge?.postMessage === "function" ? (bridge as CompanionBridge) : undefined;
}

/** A wrapper message as the page understands it, or undefined for anything else. */
export function parseWrapperMessage(
  data: unknown,
):
  | { type: "listening" | "speaking" }
  | { type: "transcript"; text: string }
  | { type: "error"; error: string }
  | undefined {
  let value = data;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (typeof value !== "object" || value === null) return undefined;
  const message = value as { type?: unknown; text?: unknown; error?: unknown };
  switch (message.type) {
    case "companion:listening":
      return { type: "listening" };
    case "companion:speaking":
      return { type: "speaking" };
    case "companion:transcript":
      return { type: "transcript", text: typeof message.text === "string" ? message.text : "" };
    case "companion:error":
      return { type: "error", error: typeof message.error === "string" ? message.error : "unknown" };
    default:
      return undefined;
  }
}

/**
 * Asks the wrapper to listen once (`startListening`) and follows its messages until the
 * transcript or an error arrives. @returns a function that stops listening without a result
 * (sends `stopListening`). @throws Error when there is no wrapper (check `mobileBridge()` first).
 */
export function listenThroughWrapper(
  options: { language: string; silenceMs: number },
  handlers: WrapperListenHandlers,
): () => void {
  const bridge = mobileBridge();
  if (!bridge) throw new Error("mobile bridge: no wrapper");
  let open = true;
  const close = () => {
    open = false;
    window.removeEventListener("message", onMessage);
  };
  const onMessage = (event: MessageEvent) => {
    if (!open || (event.source !== null && event.source !== window)) return;
    const message = parseWrapperMessage(event.data);
    if (!message) return;
    if (message.type === "transcript") {
      close();
      handlers.onTranscript(message.text);
    } else if (message.type === "error") {
      close();
      handlers.onError(message.error);
    } else if (message.type === "listening") handlers.onListening?.();
    else handlers.onSpeaking?.();
  };
  window.addEventListener("message", onMessage);
  bridge.postMessage(
    JSON.stringify({ type: "startListening", language: options.language, silenceMs: options.silenceMs }),
  );
  return () => {
    if (!open) return;
    close();
    bridge.postMessage(JSON.stringify({ type: "stopListening" }));
  };
}
