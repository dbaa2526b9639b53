import { DownloadOutlined } from "@ant-design/icons";
import { Button, Descriptions, Result } from "antd";
import type { ReactNode } from "react";
import { startDownload } from "../../app/download.ts";
import { useT } from "../../i18n/index.tsx";

export interface ImportCount {
  /** Test id suffix and React key. */
  key: string;
  label: string;
  value: number;
}

interface Props {
  counts: readonly ImportCount[];
  rejected: number;
  /** Link of the sheet of refused rows with their reasons; "" when none. */
  rejectedFile: string;
  /** Prefix of the test ids (`<prefix>-result`, `<prefix>-<count key>`). */
  testId: string;
  children?: ReactNode;
}

/** The counts of a finished import and, when rows were refused, the sheet that says why. */
export function ImportResultView({ counts, rejected, rejectedFile, testId, children }: Props) {
  const t = useT();
  return (
    <Result
      status={rejected > 0 ? "warning" : "success"}
      title={t("import.done")}
      subTitle={rejected > 0 ? t("import.doneWithRejected") : undefined}
      data-testid={`${testId}-result`}
      extra={
        rejectedFile && (
          // Stored files are served to whoever has their unguessable link (file.routes.ts), so no
          // token is put in this URL.
          <Button
            icon={<DownloadOutlined />}
            onClick={() => startDownload(rejectedFile)}
            data-testid={`${testId}-rejected-file`}
          >
            {t("import.rejectedFile")}
          </Button>
        )
      }
    >
      <Descriptions
        bordered
        size="small"
        column={Math.min(counts.length, 4)}
        items={counts.map((count) => ({
          key: count.key,
          label: count.label,
          children: <span data-testid={`${testId}-${count.key}`}>{count.value}</span>,
        }))}
      />
      {children}
    </Result>
  );
}
