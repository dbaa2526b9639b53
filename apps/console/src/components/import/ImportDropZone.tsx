import { InboxOutlined } from "@ant-design/icons";
import { Upload, type UploadFile } from "antd";
import type { ReactNode } from "react";
import { useFeedback } from "../../app/feedback.ts";
import { useT } from "../../i18n/index.tsx";
import { importFileProblem } from "./import-file.ts";

interface Props {
  file: File | null;
  onFile: (file: File | null) => void;
  /** The server's size limit for this import. */
  maxBytes: number;
  hint: ReactNode;
  disabled?: boolean;
  /** Prefix of the test ids (`<prefix>-file`). */
  testId: string;
}

/**
 * The drop zone of an Excel import: one .xlsx, checked before anything is sent. The file is kept
 * by the dialog and sent by the console's own client, never by the Upload component.
 */
export function ImportDropZone({ file, onFile, maxBytes, hint, disabled, testId }: Props) {
  const t = useT();
  const { message } = useFeedback();
  const pick = (picked: File) => {
    const problem = importFileProblem(picked, maxBytes);
    if (problem) message.error(t(problem.key, problem.vars));
    else onFile(picked);
    return Upload.LIST_IGNORE;
  };
  const listed: UploadFile[] = file ? [{ uid: "import", name: file.name, status: "done" }] : [];
  return (
    <Upload.Dragger
      accept=".xlsx"
      maxCount={1}
      fileList={listed}
      beforeUpload={pick}
      onRemove={() => onFile(null)}
      disabled={disabled}
      data-testid={`${testId}-file`}
    >
      <p className="ant-upload-drag-icon">
        <InboxOutlined />
      </p>
      <p className="ant-upload-text">{t("import.drag")}</p>
      <p className="ant-upload-hint">{hint}</p>
    </Upload.Dragger>
  );
}
