import { Card, Table, Typography } from "antd";
import { useT } from "../../i18n/index.tsx";

/** Fixed sample rows: this page only exists so menus, tabs and routing can be exercised. */
const mockRows = [
  { key: "1", meter: "000012345601", room: "A-101", balance: "128.50" },
  { key: "2", meter: "000012345602", room: "A-102", balance: "6.20" },
  { key: "3", meter: "000012345603", room: "B-201", balance: "-3.75" },
];

/** /test/index: the mock menu page of spec §2. */
export default function TestPage() {
  const t = useT();
  return (
    <Card title={t("test.title")} data-testid="test-page">
      <Typography.Paragraph>{t("test.body")}</Typography.Paragraph>
      <Table
        size="small"
        pagination={false}
        title={() => t("test.mockRows")}
        dataSource={mockRows}
        columns={[
          { title: t("test.meter"), dataIndex: "meter" },
          { title: t("test.room"), dataIndex: "room" },
          { title: t("test.balance"), dataIndex: "balance", align: "right" },
        ]}
      />
    </Card>
  );
}
