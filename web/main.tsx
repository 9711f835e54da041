import { QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router/dom";
import { Toaster } from "sonner";
import { PRODUCT_NAME } from "../common/constants";
import { createAppRouter } from "./App";
import { runStartupChecks } from "./lib/appUpdate";
import { setNavigator } from "./lib/navigation";
import { queryClient } from "./lib/queryClient";
import "./styles.css";
import "./public-pages.css";

document.title = PRODUCT_NAME;
// spec 4: unregister service workers and reload once when a newer version is deployed.
runStartupChecks();
const router = createAppRouter();
setNavigator((path) => void router.navigate(path));

const container = document.getElementById("root");
if (container === null) throw new Error("#root is missing from index.html");

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <Toaster theme="dark" richColors closeButton />
    </QueryClientProvider>
  </StrictMode>,
);
