import { useEffect } from "react";

/** The browser tab shows the current page's label (spec §2). */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}
