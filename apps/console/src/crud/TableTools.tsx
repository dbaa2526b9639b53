import { ColumnHeightOutlined, SettingOutlined } from "@ant-design/icons";
import { Button, Checkbox, Dropdown, Popover, Space, Tooltip } from "antd";
import { useT } from "../i18n/index.tsx";
import { type Density, densities } from "./table-settings.ts";

interface Props {
  /** Every data column that may be hidden, by key and title. */
  columns: readonly { key: string; title: string }[];
  hidden: readonly string[];
  density: Density;
  onHidden: (hidden: string[]) => void;
  onDensity: (density: Density) => void;
}

/**
 * The table's own tools at the right of its toolbar: which columns show and how tall the rows are.
 * Both open from buttons, so they work from the keyboard; at least one column always stays.
 */
export function TableTools({ columns, hidden, density, onHidden, onDensity }: Props) {
  const t = useT();
  const shown = columns.filter((c) => !hidden.includes(c.key)).map((c) => c.key);
  const chooser = (
    <Space orientation="vertical" data-testid="table-columns-panel">
      <Checkbox.Group
        value={shown}
        onChange={(keys) => {
          if (keys.length === 0) return;
          onHidden(columns.map((c) => c.key).filter((key) => !keys.includes(key)));
        }}
      >
        <Space orientation="vertical" size={4}>
          {columns.map((column) => (
            <Checkbox key={column.key} value={column.key} data-testid={`table-column-${column.key}`}>
              {column.title}
            </Checkbox>
          ))}
        </Space>
      </Checkbox.Group>
      <Button size="small" onClick={() => onHidden([])} disabled={hidden.length === 0}>
        {t("table.columnsReset")}
      </Button>
    </Space>
  );
  return (
    <Space size={4}>
      <Dropdown
        trigger={["click"]}
        menu={{
          selectable: true,
          selectedKeys: [density],
          items: densities.map((d) => ({ key: d, label: t(`table.density.${d}`) })),
          onClick: ({ key }) => onDensity(key as Density),
        }}
      >
        <Tooltip title={t("table.density")}>
          <Button
            icon={<ColumnHeightOutlined />}
            aria-label={t("table.density")}
            data-testid="table-density"
          />
        </Tooltip>
      </Dropdown>
      <Popover trigger="click" placement="bottomRight" title={t("table.columns")} content={chooser}>
        <Tooltip title={t("table.columns")}>
          <Button icon={<SettingOutlined />} aria-label={t("table.columns")} data-testid="table-columns" />
        </Tooltip>
      </Popover>
    </Space>
  );
}
