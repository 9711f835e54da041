// The SPA's tree and its first render: the startup version check, the query client, the router and the toasts.
import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, StrictMode, Suspense, startTransition } from "react";
import type { createRoot } from "react-dom/client";
import { useTranslation } from "react-i18next";
import { BrowserRouter } from "react-router";
import { AppRoutes, preloadRoute } from "./App";
import { fetchDeployedVersion } from "./api/meta";
import { queryClient } from "./api/queryClient";
import { runStartupChecks } from "./lib/appUpdate";
import { nextTask } from "./lib/nextTask";

// The toaster (sonner) loads after the first page; toasts shown meanwhile appear once it is there.
const Toaster = lazy(() => import("sonner").then((m) => ({ default: m.Toaster })));

/** The toaster with its labels in the current language (sonner's own are English). */
function Toasts() {
  const { t } = useTranslation("common");
  return (
    <Toaster
      theme="dark"
      richColors
      closeButton
      containerAriaLabel={t("toast.notifications")}
      toastOptions={{ closeButtonAriaLabel: t("toast.close") }}
    />
  );
}

/**
 * Starts the app in `container` once the texts are loaded (web/main.tsx's last step): the startup
 * checks, the current page's chunk, then the first render. The first render is a transition, so
 * React renders it in slices of a few milliseconds instead of one long task (the phone benchmark's
 * page loaded afresh, docs/benchmarks.md).
 * @param makeRoot react-dom's `createRoot`, loaded by the step before.
 * @returns when the first render is scheduled (after the landing page's chunk on / and /home).
 */
export async function startApp(container: HTMLElement, makeRoot: typeof createRoot): Promise<void> {
  // product.md §4: unregister service workers and reload once when a newer version is deployed.
  runStartupChecks(fetchDeployedVersion);
  // The page chunk's preload links, then the root (React's listeners for every event), each in a
  // task of its own, apart from this module's evaluation.
  await nextTask();
  const firstPage = preloadRoute(window.location.pathname);
  await nextTask();
  const root = makeRoot(container);
  await firstPage;
  startTransition(() =>
    root.render(
      <StrictMode>
        <QueryClientProvider client={queryClient}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
          <Suspense fallback={null}>
            <Toasts />
          </Suspense>
        </QueryClientProvider>
      </StrictMode>,
    ),
  );
}
