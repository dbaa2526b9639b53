import { DownloadOutlined, UploadOutlined } from "@ant-design/icons";
import { resources } from "@meterline/contracts";
import { Button, Upload } from "antd";
import { useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { uploadAttachment } from "./storage-calls.ts";

/** The server's limit, checked here too so a large file is refused before it is sent. */
const MAX_BYTES = 10 * 1024 * 1024;

/**
 * 附件管理: every stored file, searchable by name; upload (`attach_upload` or `oss_upload`), download through the
 * file's own link (`attach_download`) and delete, which removes the stored object as well.
 */
export default function AttachPage() {
  const t = useT();
  const { message } = useFeedback();
  // Either storage screen's upload button lets the server take the file.
  const canUpload = useConsole(
    (state) => state.permission.attach_upload === true || state.permission.oss_upload === true,
  );
  const canDownload = useConsole((state) => state.permission.attach_download === true);
  const [uploading, setUploading] = useState(false);

  const upload = async (file: File, reload: () => Promise<void>) => {
    if (file.size > MAX_BYTES) {
      message.error(t("attach.sizeLimit"));
      return;
    }
    setUploading(true);
    try {
      const stored = await uploadAttachment(file);
      message.success(t("attach.uploaded", { name: stored.originalName }));
      await reload();
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setUploading(false);
    }
  };

  return (
    <ResourcePage
      def={resources.attach}
      toolbar={(reload) =>
        canUpload && (
          <Upload
            showUploadList={false}
            beforeUpload={(file) => {
              void upload(file, reload);
              return false;
            }}
          >
            <Button type="primary" icon={<UploadOutlined />} loading={uploading} data-testid="attach-upload">
              {t("attach.upload")}
            </Button>
          </Upload>
        )
      }
      rowActions={(row) =>
        canDownload &&
        typeof row.link === "string" && (
          <Button
            type="link"
            size="small"
            icon={<DownloadOutlined />}
            href={row.link}
            download={String(row.originalName ?? "")}
            data-testid="row-attach-download"
          >
            {t("attach.download")}
          </Button>
        )
      }
    />
  );
}
