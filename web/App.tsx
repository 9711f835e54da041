// The SPA's route table (product.md §2 "Route table"): every page, loaded on demand with its texts, and the chat's early preload.
import { lazy, Suspense, useEffect } from "react";
import { useTranslation } from "react-i18next";
import { type RouteObject, useNavigate, useRoutes } from "react-router";
import { PublicLayout } from "./components/public/PublicLayout";
import { RequireSession } from "./components/RequireSession";
import { Spinner } from "./components/Spinner";
import { isChatPath, SIGNED_IN_FRAME } from "./lib/appPaths";
import { setNavigator } from "./lib/navigation";
import { loadChatPage, withAppTexts, withTexts } from "./pageChunks";
import { CharacterSelectRedirect } from "./pages/characters/CharacterSelectRedirect";
import { LogoutPage } from "./pages/logout/LogoutPage";
import { RootRedirect } from "./pages/root/RootRedirect";
import { MaintenancePage } from "./pages/system/MaintenancePage";
import { NotFoundPage } from "./pages/system/NotFoundPage";

// Pages off the main path load on demand, to keep the first download small;
// the login page too, since the pages that are not it do not need it. The public layout shows its
// loading overlay while one loads. The FAQ and terms bring their own catalogues.
let homeModule: typeof import("./pages/home/HomePage") | undefined;
const loadHomePage = () => import("./pages/home/HomePage").then((m) => (homeModule = m));
const LazyHomePage = lazy(() => loadHomePage().then((m) => ({ default: m.HomePage })));
/**
 * The landing page, a chunk of its own (the other public pages need none of it): rendered at once
 * when the chunk is already here (the app opened on it: `preloadRoute` fetched it before the first
 * render), lazily when a visitor comes to it from another page.
 */
function HomePage() {
  return homeModule ? <homeModule.HomePage /> : <LazyHomePage />;
}
const LoginPage = lazy(() => import("./pages/login/LoginPage").then((m) => ({ default: m.LoginPage })));
const FreeChatPage = lazy(() =>
  import("./pages/free-chat/FreeChatPage").then((m) => ({ default: m.FreeChatPage })),
);
const PricingPage = lazy(() =>
  import("./pages/pricing/PricingPage").then((m) => ({ default: m.PricingPage })),
);
const FaqPage = lazy(() =>
  withTexts(import("./pages/faq/FaqPage"), ["faq"]).then((m) => ({ default: m.FaqPage })),
);
const ContactPage = lazy(() =>
  import("./pages/contact/ContactPage").then((m) => ({ default: m.ContactPage })),
);
const TermsPage = lazy(() =>
  withTexts(import("./pages/terms/TermsPage"), ["terms"]).then((m) => ({ default: m.TermsPage })),
);
const ForbiddenPage = lazy(() =>
  import("./pages/forbidden/ForbiddenPage").then((m) => ({ default: m.ForbiddenPage })),
);
const ResetPasswordPage = lazy(() =>
  import("./pages/reset-password/ResetPasswordPage").then((m) => ({ default: m.ResetPasswordPage })),
);
const SetupPage = lazy(() => import("./pages/setup/SetupPage").then((m) => ({ default: m.SetupPage })));
const SignupPage = lazy(() => import("./pages/signup/SignupPage").then((m) => ({ default: m.SignupPage })));
const CharacterListPage = lazy(() =>
  withAppTexts(import("./pages/characters/CharacterListPage")).then((m) => ({
    default: m.CharacterListPage,
  })),
);
const PresetSelectionPage = lazy(() =>
  withAppTexts(import("./pages/characters/PresetSelectionPage")).then((m) => ({
    default: m.PresetSelectionPage,
  })),
);
// The frame of the signed-in pages (menu, admin check, dark mode): not needed by the public pages
//. Its catalogues load with it, in parallel.
const loadSignedInLayout = () => withAppTexts(import("./components/SignedInLayout"));
const SignedInLayout = lazy(() => loadSignedInLayout().then((m) => ({ default: m.SignedInLayout })));
const ChatPage = lazy(() => loadChatPage().then((m) => ({ default: m.ChatPage })));

/**
 * Starts downloading the chat screen's code before the first render when the page opened is a
 * chat (`/chat`, `/character-select/:id`), so it arrives while React's root is made and the first
 * render runs instead of after (the chat-paint benchmark's critical path); likewise the signed-in frame for the pages
 * inside it, so it does not wait for the first render. Other paths load their page as they render.
 * @returns what the first render waits for: the landing page's chunk on / and /home, else nothing.
 */
export function preloadRoute(pathname: string): Promise<unknown> {
  if (isChatPath(pathname)) void loadChatPage();
  else if (SIGNED_IN_FRAME.test(pathname)) void loadSignedInLayout();
  // The landing page's chunk is fetched beside the catalogues; the first render waits for it, so
  // the page shows without a loading frame (a failed fetch leaves it to the lazy path).
  if (/^\/(home)?$/i.test(pathname)) return loadHomePage().catch(() => undefined);
  return Promise.resolve();
}
const CharacterFormPage = lazy(() =>
  withAppTexts(import("./pages/characters/CharacterFormPage")).then((m) => ({
    default: m.CharacterFormPage,
  })),
);
const ProfilePage = lazy(() =>
  withAppTexts(import("./pages/profile/ProfilePage")).then((m) => ({ default: m.ProfilePage })),
);
const ChangePasswordPage = lazy(() =>
  withAppTexts(import("./pages/profile/ChangePasswordPage")).then((m) => ({ default: m.ChangePasswordPage })),
);
// the admin console, loaded only when opened (and shown only once the server confirms the role).
const AdminPage = lazy(() =>
  withAppTexts(import("./pages/admin/AdminPage")).then((m) => ({ default: m.AdminPage })),
);

/**
 * The route table (product.md §2). Public, inside the shared public layout: / and /home, /free-chat
 * (also /Free-chat: React Router matches paths case-insensitively), /start-chat (the root
 * redirector), /pricing, /faq, /contact, /terms, /login, /login/:id, /reset-password/:code,
 * /setup/:token (the owner's first-run set-up), /signup (sign-up, `?invite=` for invitations),
 * /forbidden, /maintenance, /logout and the 404 page.
 * Protected (no stored user → /login): /characters/list, /characters/selection,
 * /characters/add, /characters/update, /user/profile, /user/change-password,
 * /character-select/:id, /chat, and /admin (admins only, others go to /forbidden).
 */
export const routes: RouteObject[] = [
  {
    element: <PublicLayout />,
    children: [
      { path: "/", element: <HomePage /> },
      { path: "/home", element: <HomePage /> },
      { path: "/free-chat", element: <FreeChatPage /> },
      { path: "/start-chat", element: <RootRedirect /> },
      { path: "/pricing", element: <PricingPage /> },
      { path: "/faq", element: <FaqPage /> },
      { path: "/contact", element: <ContactPage /> },
      { path: "/terms", element: <TermsPage /> },
      { path: "/login", element: <LoginPage /> },
      { path: "/login/:id", element: <LoginPage /> },
      { path: "/reset-password/:code", element: <ResetPasswordPage /> },
      { path: "/setup/:token", element: <SetupPage /> },
      { path: "/signup", element: <SignupPage /> },
      { path: "/forbidden", element: <ForbiddenPage /> },
      { path: "/maintenance", element: <MaintenancePage /> },
      { path: "/logout", element: <LogoutPage /> },
      { path: "*", element: <NotFoundPage /> },
    ],
  },
  {
    element: <RequireSession />,
    children: [
      {
        element: (
          <Suspense
            fallback={
              <div className="center-screen">
                <LoadingSpinner />
              </div>
            }
          >
            <SignedInLayout />
          </Suspense>
        ),
        children: [
          { path: "/characters/list", element: <CharacterListPage /> },
          { path: "/characters/selection", element: <PresetSelectionPage /> },
          { path: "/characters/add", element: <CharacterFormPage mode="add" /> },
          { path: "/characters/update", element: <CharacterFormPage mode="update" /> },
          { path: "/user/profile", element: <ProfilePage /> },
          { path: "/user/change-password", element: <ChangePasswordPage /> },
          { path: "/admin", element: <AdminPage /> },
        ],
      },
      { path: "/character-select/:id", element: <CharacterSelectRedirect /> },
      {
        path: "/chat",
        element: (
          <Suspense
            fallback={
              <div className="center-screen">
                <ChatLoadingSpinner />
              </div>
            }
          >
            <ChatPage />
          </Suspense>
        ),
      },
    ],
  },
];

/** The spinner shown while the chat screen's code loads, named in the current language. */
function ChatLoadingSpinner() {
  const { t } = useTranslation("common");
  return <Spinner label={t("loading.chat")} />;
}

/** The spinner shown while the signed-in frame's code loads, named in the current language. */
function LoadingSpinner() {
  const { t } = useTranslation("common");
  return <Spinner label={t("loading.page")} />;
}

/**
 * The route table rendered inside a <BrowserRouter> (declarative mode: the data router would
 * add about 16 KB gzipped to every page, the bundle-size targets). Registers the router's
 * navigate for code outside React (lib/navigation).
 */
export function AppRoutes() {
  const navigate = useNavigate();
  useEffect(() => setNavigator((path) => void navigate(path)), [navigate]);
  return useRoutes(routes);
}
