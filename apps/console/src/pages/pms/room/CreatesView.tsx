import { Descriptions, Space, Typography } from "antd";
import type { MessageKey } from "../../../i18n/index.tsx";
import { useT } from "../../../i18n/index.tsx";
import { CREATE_KINDS, type RegistryCreates } from "./registry-import-calls.ts";

const labels: Record<(typeof CREATE_KINDS)[number], MessageKey> = {
  collectors: "pms.import.collectors",
  areas: "pms.import.areas",
  rooms: "pms.import.rooms",
  owners: "pms.import.owners",
  meters: "pms.import.meters",
  waters: "pms.import.waters",
  links: "pms.import.links",
  nodes: "pms.import.nodes",
  nodeMeters: "pms.import.nodeMeters",
};

/**
 * The rows an import creates per kind, and the collectors its 采集器 sheet named that the tenant
 * already has (used as they are, never changed).
 */
export function CreatesView({
  creates,
  title,
  existingCollectors = [],
}: {
  creates: RegistryCreates;
  title: string;
  existingCollectors?: readonly string[];
}) {
  const t = useT();
  return (
    <Space orientation="vertical" style={{ width: "100%" }}>
      <CreatedCounts creates={creates} title={title} />
      {existingCollectors.length > 0 && (
        <Typography.Text type="secondary" data-testid="room-import-existing-collectors">
          {t("pms.import.existingCollectors", { codes: existingCollectors.join("、") })}
        </Typography.Text>
      )}
    </Space>
  );
}

function CreatedCounts({ creates, title }: { creates: RegistryCreates; title: string }) {
  const t = useT();
  return (
    <Descriptions
      title={title}
      bordered
      size="small"
      column={3}
      items={CREATE_KINDS.filter((kind) => creates[kind] !== undefined).map((kind) => ({
        key: kind,
        label: t(labels[kind]),
        children: <span data-testid={`room-import-creates-${kind}`}>{creates[kind] ?? 0}</span>,
      }))}
    />
  );
}
