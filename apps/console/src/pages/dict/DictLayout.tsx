import type { Row } from "@meterline/api-client";
import { type ResourceDef, website } from "@meterline/contracts";
import { Card, Col, Empty, Row as GridRow } from "antd";
import { useMemo, useState } from "react";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useT } from "../../i18n/index.tsx";
import { dictFaces, ROOT_KEY } from "./dict-defs.ts";

const newRoot = () => ({ dictKey: ROOT_KEY });
const locked = ["code", "parentId"] as const;

interface Props {
  orientation: "horizontal" | "vertical";
  /** The dictionary resource shown: the system dictionary or the business one. */
  def: ResourceDef;
}

/**
 * A dictionary as master and detail: the page of dictionaries (roots) and the items of the one
 * clicked, side by side or one above the other. An item's code and parent are its dictionary's,
 * so they are shown but never editable (spec §5).
 */
export function DictLayout({ orientation, def }: Props) {
  const t = useT();
  const { roots, items } = dictFaces(def);
  const [parent, setParent] = useState<Row | null>(null);
  const parentId = parent ? String(parent.id) : undefined;
  // The items pane lists, and exports, only the chosen dictionary's items.
  const itemFilters = useMemo(() => ({ parentId }), [parentId]);
  const newItem = useMemo(() => () => ({ parentId, code: parent?.code }), [parentId, parent]);
  const span = orientation === "horizontal" ? 12 : 24;

  return (
    <GridRow gutter={[16, 16]} data-testid={`dict-${orientation}`} data-resource={def.name}>
      <Col span={span} data-testid="dict-parents">
        <ResourcePage
          def={roots}
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
            def={items}
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
