import { createBrowserRouter, type RouteObject } from "react-router";
import { RequireSession } from "./components/RequireSession";
import { SignedInLayout } from "./components/SignedInLayout";
import { CharacterListPage } from "./pages/characters/CharacterListPage";
import { CharacterSelectRedirect } from "./pages/characters/CharacterSelectRedirect";
import { PresetSelectionPage } from "./pages/characters/PresetSelectionPage";
import { ChatPage } from "./pages/chat/ChatPage";
import { LoginPage } from "./pages/login/LoginPage";
import { LogoutPage } from "./pages/logout/LogoutPage";
import { RootRedirect } from "./pages/root/RootRedirect";
import { MaintenancePage } from "./pages/system/MaintenancePage";
import { NotFoundPage } from "./pages/system/NotFoundPage";

/**
 * The route table (spec 2). Public: /, /home, /login, /login/:id, /logout, /maintenance.
 * Protected (no stored user → /login): /characters/list, /characters/selection,
 * /character-select/:id, /chat. Anything else: 404.
 */
export const routes: RouteObject[] = [
  { path: "/", element: <RootRedirect /> },
  { path: "/home", element: <RootRedirect /> },
  { path: "/login", element: <LoginPage /> },
  { path: "/login/:id", element: <LoginPage /> },
  { path: "/logout", element: <LogoutPage /> },
  { path: "/maintenance", element: <MaintenancePage /> },
  {
    element: <RequireSession />,
    children: [
      {
        element: <SignedInLayout />,
        children: [
          { path: "/characters/list", element: <CharacterListPage /> },
          { path: "/characters/selection", element: <PresetSelectionPage /> },
        ],
      },
      { path: "/character-select/:id", element: <CharacterSelectRedirect /> },
      { path: "/chat", element: <ChatPage /> },
    ],
  },
  { path: "*", element: <NotFoundPage /> },
];

/** Builds the browser router for the route table. */
export function createAppRouter(): ReturnType<typeof createBrowserRouter> {
  return createBrowserRouter(routes);
}
