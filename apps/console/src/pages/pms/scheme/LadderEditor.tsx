import { Input, Table, Typography } from "antd";
import type { FieldEditorProps } from "../../../crud/form-customization.ts";
import { useT } from "../../../i18n/index.tsx";
import { EditorSurface } from "./EditorSurface.tsx";
import { AddRowButton, RemoveRowButton } from "./RowButtons.tsx";
import { rowEdits } from "./row-edits.ts";
import { MAX_TIERS, MIN_TIERS, parseTiers, type Tier, tiersText } from "./scheme-json.ts";

/**
 * A ladder as an editable table of tiers: each bounded tier's upper limit and price, the last tier
 * open. The value is the ladder's JSON as stored, so the form sends what the server reads.
 */
export function LadderEditor({ value, onChange, disabled, id }: FieldEditorProps) {
  const t = useT();
  const tiers = parseTiers(value);
  const write = (next: Tier[]) => onChange?.(tiersText(next));
  const { change, without } = rowEdits(tiers, write);
  // A new tier goes before the open one, which stays last.
  const add = () => write([...tiers.slice(0, -1), { limit: "", price: "" }, tiers.at(-1)!]);
  const remove = (index: number) => {
    const next = without(index);
    write(next.map((tier, i) => (i === next.length - 1 ? { ...tier, limit: null } : tier)));
  };
  const rows = tiers.map((tier, index) => ({ ...tier, index }));

  return (
    <EditorSurface>
      <div id={id} data-testid="ladder-editor">
        <Table
          size="small"
          pagination={false}
          rowKey="index"
          dataSource={rows}
          columns={[
            {
              key: "tier",
              title: t("scheme.ladder.tier"),
              width: 90,
              render: (_, row) => t("scheme.ladder.nth", { n: row.index + 1 }),
            },
            {
              key: "limit",
              title: t("scheme.ladder.limitTitle"),
              render: (_, row) =>
                row.index === tiers.length - 1 ? (
                  <Typography.Text type="secondary">{t("scheme.ladder.open")}</Typography.Text>
                ) : (
                  <Input
                    value={row.limit ?? ""}
                    onChange={(event) => change(row.index, { limit: event.target.value })}
                    inputMode="decimal"
                    disabled={disabled}
                    aria-label={t("scheme.ladder.limitOf", { n: row.index + 1 })}
                    data-testid={`ladder-limit-${row.index}`}
                  />
                ),
            },
            {
              key: "price",
              title: t("scheme.ladder.priceTitle"),
              render: (_, row) => (
                <Input
                  value={row.price}
                  onChange={(event) => change(row.index, { price: event.target.value })}
                  inputMode="decimal"
                  disabled={disabled}
                  aria-label={t("scheme.ladder.priceOf", { n: row.index + 1 })}
                  data-testid={`ladder-price-${row.index}`}
                />
              ),
            },
            {
              key: "remove",
              width: 56,
              render: (_, row) => (
                <RemoveRowButton
                  onClick={() => remove(row.index)}
                  disabled={disabled || tiers.length <= MIN_TIERS}
                  label={t("scheme.ladder.removeOf", { n: row.index + 1 })}
                />
              ),
            },
          ]}
        />
        <AddRowButton
          onClick={add}
          disabled={disabled || tiers.length >= MAX_TIERS}
          style={{ marginTop: 8 }}
          label={t("scheme.ladder.add")}
          testId="ladder-add"
        />
      </div>
    </EditorSurface>
  );
}
