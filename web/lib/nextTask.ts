// Yielding to the browser: a promise that resolves in a new task, and work run once the page is idle.

/**
 * Resolves in a new task, so the browser can paint and handle input before what follows: a
 * MessageChannel message, which no timer clamps and no paused test clock holds back (a
 * `setTimeout(0)` would be both). Used between the startup's steps (web/main.tsx, web/root.tsx)
 * and between a send's tap and its bubble (useChatSender).
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Runs `task` once the page is idle (at most 3 s later; 1 s later where the browser has no idle callback). */
export function whenIdle(task: () => void): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(task, { timeout: 3000 });
  else setTimeout(task, 1000);
}
