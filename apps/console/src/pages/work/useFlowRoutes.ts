import { useEffect, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { routeOfCategory } from "./work-calls.ts";

/**
 * Route keys of the categories of the rows shown (flow_1 → "leave"), read from the `flow`
 * dictionary once per category; a category without a route maps to "".
 */
export function useFlowRoutes(categories: readonly string[]): Record<string, string> {
  const [routes, setRoutes] = useState<Record<string, string>>({});
  const wanted = [...new Set(categories)].filter((c) => !(c in routes)).join(",");
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    Promise.all(wanted.split(",").map(async (c) => [c, (await routeOfCategory(c)) ?? ""] as const))
      .then((pairs) => live && setRoutes((known) => ({ ...known, ...Object.fromEntries(pairs) })))
      .catch(reportNetworkError);
    return () => {
      live = false;
    };
  }, [wanted]);
  return routes;
}
