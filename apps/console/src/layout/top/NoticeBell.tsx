import { BellOutlined } from "@ant-design/icons";
import { Badge, Empty, Popover } from "antd";
import { useState } from "react";
import { useT } from "../../i18n/index.tsx";
import { IconButton } from "./IconButton.tsx";

/** Alarm bell. Alarm cards arrive with the alarm module; until then it shows the empty state. */
export function NoticeBell() {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      placement="bottomRight"
      title={t("notice.title")}
      content={
        <div className="ml-notice-panel" data-testid="notice-panel">
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t("notice.empty")} />
        </div>
      }
    >
      <Badge count={0} size="small">
        <IconButton label={t("top.notice")} icon={<BellOutlined />} testId="notice-button" quiet={open} />
      </Badge>
    </Popover>
  );
}
