import { website } from "@meterline/contracts";
import { lazy, Suspense } from "react";
import { Navigate, type RouteObject, useRoutes } from "react-router";
import { LazyPage } from "../components/LazyPage.tsx";
import { PageLoading } from "../components/PageLoading.tsx";
import { Guard } from "./Guard.tsx";
import { pages } from "./pages.ts";

// Inside the shell only: the resource pages' registry it reads stays out of the login page's load.
const DynamicPage = lazy(() => import("../layout/DynamicPage.tsx").then((m) => ({ default: m.DynamicPage })));

// antd's Result and its illustrations load with an error page only, not with every first load.
const LazyErrorPage = lazy(() =>
  import("../pages/errors/ErrorPage.tsx").then((m) => ({ default: m.ErrorPage })),
);
const errorPage = (code: 403 | 404 | 500) => (
  <Suspense fallback={<PageLoading />}>
    <LazyErrorPage code={code} />
  </Suspense>
);

/**
 * Fixed routes of spec §2. Everything inside the layout goes through the `*` child: the page
 * registry or the server menu decides what it is, and anything else lands on /404.
 */
const routes: RouteObject[] = [
  {
    element: <Guard />,
    children: [
      { path: "/login", element: <LazyPage key="login" entry={pages.login} /> },
      { path: website.lockPage, element: <LazyPage key="lock" entry={pages.lock} /> },
      { path: "/403", element: errorPage(403) },
      { path: "/404", element: errorPage(404) },
      { path: "/500", element: errorPage(500) },
      { path: "/", element: <Navigate to="/wel" replace /> },
      { path: "/wel", element: <Navigate to={website.homePath} replace /> },
      {
        element: <LazyPage key="shell" entry={pages.shell} />,
        children: [
          { path: "/myiframe/:routerPath", element: <LazyPage key="iframe" entry={pages.iframe} /> },
          {
            path: "*",
            element: (
              <Suspense fallback={<PageLoading />}>
                <DynamicPage />
              </Suspense>
            ),
          },
        ],
      },
    ],
  },
];

/**
 * The routes, matched by the declarative router (BrowserRouter in ConsoleApp): the console loads no
 * data through routes, and the data router's machinery would be a sixth of every first load.
 */
export function ConsoleRoutes() {
  return useRoutes(routes);
}
