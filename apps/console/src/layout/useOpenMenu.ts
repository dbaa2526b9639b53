import { useCallback } from "react";
import { useNavigate } from "react-router";
import { type MenuItem, safeUrl } from "./menu-model.ts";

/** Where a leaf goes: a console route (with its query), the iframe route, or a new window. */
export function menuHref(leaf: MenuItem): string {
  const query = new URLSearchParams(leaf.query);
  query.delete("target");
  if (leaf.target === "iframe") query.set("src", leaf.href);
  const text = query.toString();
  return text ? `${leaf.path}?${text}` : leaf.path;
}

export function useOpenMenu(): (leaf: MenuItem) => void {
  const navigate = useNavigate();
  return useCallback(
    (leaf: MenuItem) => {
      if (leaf.target === "window") {
        const url = safeUrl(leaf.href || menuHref(leaf));
        if (url) window.open(url, "_blank", "noopener,noreferrer");
        return;
      }
      navigate(menuHref(leaf));
    },
    [navigate],
  );
}
