import { BgColorsOutlined } from "@ant-design/icons";
import { lazy, Suspense, useState } from "react";
import { useT } from "../../i18n/index.tsx";
import { IconButton } from "./IconButton.tsx";

// antd's Modal and the theme previews travel with the first press, not with every page load.
const ThemeDialog = lazy(() => import("./ThemeDialog.tsx"));

/** Theme dialog with the 11 themes of spec §2; the choice applies at once and is remembered. */
export function ThemeButton() {
  const t = useT();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  return (
    <>
      <IconButton
        label={t("top.theme")}
        icon={<BgColorsOutlined />}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
        testId="theme-button"
      />
      {wanted ? (
        <Suspense fallback={null}>
          <ThemeDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
