import { UploadOutlined } from "@ant-design/icons";
import { Avatar, Button, Space, Upload } from "antd";
import defaultAvatar from "../../assets/avatar-default.svg";
import { IMAGE_ACCEPT } from "../../components/image-rules.ts";
import { useImageUpload } from "../../components/useImageUpload.ts";
import { useT } from "../../i18n/index.tsx";

interface Props {
  /** The avatar link, as Form.Item hands it over. */
  value?: string;
  onChange?: (link: string) => void;
}

/** Picks a jpg/png of at most 500 kb, uploads it with purpose=avatar and keeps the served link. */
export function AvatarUpload({ value, onChange }: Props) {
  const t = useT();
  const { uploading, beforeUpload } = useImageUpload((link) => onChange?.(link));

  return (
    <Space size="large">
      <Avatar size={72} src={value || defaultAvatar} alt="" data-testid="info-avatar" />
      <Upload accept={IMAGE_ACCEPT} showUploadList={false} beforeUpload={beforeUpload}>
        <Button icon={<UploadOutlined />} loading={uploading} data-testid="info-avatar-upload">
          {t("info.avatarPick")}
        </Button>
      </Upload>
    </Space>
  );
}
