import { Segmented, Space } from "antd";
import { useSearchParams } from "react-router";
import { resourceTitle } from "../../crud/labels.ts";
import { useI18n } from "../../i18n/index.tsx";
import { DictLayout } from "./DictLayout.tsx";
import { type DictKind, dictDefs } from "./dict-defs.ts";

const kinds: DictKind[] = ["system", "biz"];

/**
 * A dictionary layout with a switch between the system and the business dictionary. The choice
 * lives in the URL (`?kind=biz`), so a reload, a link or the tab keeps it.
 */
export function DictKindLayout({ orientation }: { orientation: "horizontal" | "vertical" }) {
  const { language, t } = useI18n();
  const [params, setParams] = useSearchParams();
  const kind: DictKind = params.get("kind") === "biz" ? "biz" : "system";

  const choose = (next: DictKind) =>
    setParams(
      (current) => {
        const query = new URLSearchParams(current);
        if (next === "biz") query.set("kind", "biz");
        else query.delete("kind");
        return query;
      },
      { replace: true },
    );

  return (
    <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
      <Segmented<DictKind>
        aria-label={t("dict.kindLabel")}
        value={kind}
        onChange={choose}
        options={kinds.map((value) => ({ value, label: resourceTitle(dictDefs[value], language) }))}
        data-testid="dict-kind"
      />
      {/* Keyed by kind: the chosen dictionary of one kind means nothing in the other. */}
      <DictLayout key={kind} orientation={orientation} def={dictDefs[kind]} />
    </Space>
  );
}
