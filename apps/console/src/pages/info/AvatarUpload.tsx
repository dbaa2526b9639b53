import { UploadOutlined } from "@ant-design/icons";
import { App, Avatar, Button, Space, Upload } from "antd";
import { useState } from "react";
import { api, reportNetworkError } from "../../app/api.ts";
import defaultAvatar from "../../assets/avatar-default.svg";
import { useT } from "../../i18n/index.tsx";
import { avatarProblem } from "./profile-rules.ts";

interface Props {
  /** The avatar link, as Form.Item hands it over. */
  value?: string;
  onChange?: (link: string) => void;
}

/** Picks a jpg/png of at most 500 kb, uploads it with purpose=avatar and keeps the served link. */
export function AvatarUpload({ value, onChange }: Props) {
  const t = useT();
  const { message } = App.useApp();
  const [uploading, setUploading] = useState(false);

  const upload = async (file: File) => {
    const problem = avatarProblem(file);
    if (problem) {
      message.error(t(problem));
      return;
    }
    setUploading(true);
    try {
      const stored = await api.putFile(file, file.name, "avatar");
      onChange?.(stored.link);
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setUploading(false);
    }
  };

  return (
    <Space size="large">
      <Avatar size={72} src={value || defaultAvatar} alt="" data-testid="info-avatar" />
      <Upload
        accept=".jpg,.jpeg,.png"
        showUploadList={false}
        // The file is sent by our own client (token, errors), not by the Upload component.
        beforeUpload={(file) => {
          void upload(file);
          return false;
        }}
      >
        <Button icon={<UploadOutlined />} loading={uploading} data-testid="info-avatar-upload">
          {t("info.avatarPick")}
        </Button>
      </Upload>
    </Space>
  );
}
