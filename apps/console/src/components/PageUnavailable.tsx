import { useT } from "../i18n/index.tsx";
import { Result } from "./LazyResult.tsx";

/** A menu entry whose page has not been built yet: visible, never a blank screen. */
export function PageUnavailable({ name, path }: { name: string; path: string }) {
  const t = useT();
  return (
    <div data-testid="page-unavailable">
      <Result
        status="info"
        title={t("page.unavailable")}
        subTitle={t("page.unavailableSub", { name, path })}
      />
    </div>
  );
}
