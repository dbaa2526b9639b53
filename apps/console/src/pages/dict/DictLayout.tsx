import type { Row } from "@meterline/api-client";
import { website } from "@meterline/contracts";
import { Card, Col, Empty, Row as GridRow } from "antd";
import { useMemo, useState } from "react";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useT } from "../../i18n/index.tsx";
import { dictItems, dictRoots, ROOT_KEY } from "./dict-defs.ts";

const newRoot = () => ({ dictKey: ROOT_KEY });
const locked = ["code", "parentId"] as const;

/**
 * The system dictionary as master and detail: the page of dictionaries (roots) and the items of
 * the one clicked, side by side or one above the other.
 */
export function DictLayout({ orientation }: { orientation: "horizontal" | "vertical" }) {
  const t = useT();
  const [parent, setParent] = useState<Row | null>(null);
  const parentId = parent ? String(parent.id) : undefined;
  const itemFilters = useMemo(() => ({ parentId }), [parentId]);
  const newItem = useMemo(() => () => ({ parentId, code: parent?.code }), [parentId, parent]);
  const span = orientation === "horizontal" ? 12 : 24;

  return (
    <GridRow gutter={[16, 16]} data-testid={`dict-${orientation}`}>
      <Col span={span} data-testid="dict-parents">
        <ResourcePage
          def={dictRoots}
          listVerb="parent-list"
          flat
          newRow={newRoot}
          dialogWidth={website.dictDialogWidth}
          onRowClick={setParent}
          activeRowId={parentId}
        />
      </Col>
      <Col span={span} data-testid="dict-children">
        {parent ? (
          <ResourcePage
            key={parentId}
            def={dictItems}
            listVerb="child-list"
            baseFilters={itemFilters}
            flat
            newRow={newItem}
            lockedFields={locked}
            dialogWidth={website.dictDialogWidth}
          />
        ) : (
          <Card>
            <Empty description={t("dict.pickParent")} />
          </Card>
        )}
      </Col>
    </GridRow>
  );
}
