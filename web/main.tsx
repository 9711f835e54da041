// The SPA's entry point: the startup version check, the query client, the router, the toasts, rendered once the texts are loaded.
import { QueryClientProvider } from "@tanstack/react-query";
import { lazy, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { useTranslation } from "react-i18next";
import { BrowserRouter } from "react-router";
import { PRODUCT_NAME } from "../common/constants";
import "./styles/base.css";
import { AppRoutes, preloadRoute } from "./App";
import { fetchDeployedVersion } from "./api/meta";
import { queryClient } from "./api/queryClient";
import { i18nReady } from "./i18n";
import { runStartupChecks } from "./lib/appUpdate";

document.title = PRODUCT_NAME;
const firstPage = preloadRoute(window.location.pathname);
// product.md §4: unregister service workers and reload once when a newer version is deployed.
runStartupChecks(fetchDeployedVersion);

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

const container = document.getElementById("root");
if (container === null) throw new Error("#root is missing from index.html");

// the first render waits for the current language's catalogues (English is bundled;
// another language is one chunk per catalogue, fetched from our server) and, on the landing page,
// for its chunk (fetched meanwhile).
void Promise.all([i18nReady, firstPage]).then(() =>
  createRoot(container).render(
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
