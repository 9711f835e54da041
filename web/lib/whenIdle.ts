// Running work once the page is idle.

/** Runs `task` once the page is idle (at most 3 s later; 1 s later where the browser has no idle callback). */
export function whenIdle(task: () => void): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(task, { timeout: 3000 });
  else setTimeout(task, 1000);
}
