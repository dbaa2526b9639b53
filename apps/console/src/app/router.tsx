import { website } from "@meterline/contracts";
import { createBrowserRouter, Navigate, type RouteObject } from "react-router";
import { LazyPage } from "../components/LazyPage.tsx";
import { DynamicPage } from "../layout/DynamicPage.tsx";
import { ErrorPage } from "../pages/errors/ErrorPage.tsx";
import { Guard, type RouteHandle } from "./Guard.tsx";
import { pages } from "./pages.ts";

const publicRoute: RouteHandle = { auth: false };

/**
 * Fixed routes of spec §2. Everything inside the layout goes through the `*` child: the page
 * registry or the server menu decides what it is, and anything else lands on /404.
 */
const routes: RouteObject[] = [
  {
    element: <Guard />,
    children: [
      { path: "/login", element: <LazyPage key="login" entry={pages.login} />, handle: publicRoute },
      { path: website.lockPage, element: <LazyPage key="lock" entry={pages.lock} /> },
      { path: "/403", element: <ErrorPage code={403} />, handle: publicRoute },
      { path: "/404", element: <ErrorPage code={404} />, handle: publicRoute },
      { path: "/500", element: <ErrorPage code={500} />, handle: publicRoute },
      { path: "/", element: <Navigate to="/wel" replace /> },
      { path: "/wel", element: <Navigate to={website.homePath} replace /> },
      {
        element: <LazyPage key="shell" entry={pages.shell} />,
        children: [
          { path: "/myiframe/:routerPath", element: <LazyPage key="iframe" entry={pages.iframe} /> },
          { path: "*", element: <DynamicPage /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
