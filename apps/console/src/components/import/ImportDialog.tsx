import { DownloadOutlined } from "@ant-design/icons";
import { Button, Space } from "antd";
import { type ReactNode, useState } from "react";
import { startDownload } from "../../app/download.ts";
import { useT } from "../../i18n/index.tsx";
import { ImportDropZone } from "./ImportDropZone.tsx";
import { ImportModal } from "./ImportModal.tsx";
import { ImportProgress } from "./ImportProgress.tsx";
import { type ImportCount, ImportResultView } from "./ImportResultView.tsx";
import { useImportUpload } from "./useImportUpload.ts";

type Upload<T> = (file: File, onProgress: (percent: number) => void) => Promise<T>;

/** What a finished import reports, read from the server's answer. */
export interface ImportReport {
  counts: readonly ImportCount[];
  rejected: number;
  /** Link of the sheet of refused rows; "" when the import hands none back. */
  rejectedFile: string;
  /** Shown under the counts (what was created, the first refusals…). */
  details?: ReactNode;
}

/** An import that checks the sheet first: its import button waits for a preview it accepts. */
export interface ImportPreviewStep<P> {
  label: string;
  send: Upload<P>;
  view: (preview: P) => ReactNode;
  /** Whether the previewed sheet has anything to import. */
  importable: (preview: P) => boolean;
}

interface Props<R, P> {
  /** Test id prefix: `<id>-dialog`, `-file`, `-template`, `-preview`, `-submit`, `-result`, … */
  testId: string;
  title: string;
  width?: number;
  /** The drop zone's line under "drag a file here". */
  hint: string;
  /** The server's size limit for this import. */
  maxBytes: number;
  /** The download link of the sheet to fill in. */
  templateUrl: () => string;
  submitLabel: string;
  /** Sends the file (with whatever the options above chose). */
  send: Upload<R>;
  report: (result: R) => ImportReport;
  /** Called with every finished import, so the page can reload what it shows. */
  onImported: (result: R) => void;
  onClose: () => void;
  /** Controls beside the template link (an overwrite switch…) and a line under them. */
  options?: (busy: boolean) => ReactNode;
  optionsHint?: ReactNode;
  preview?: ImportPreviewStep<P>;
}

/**
 * The one Excel import of the console: pick a checked .xlsx, optionally preview what it would do,
 * send it with its progress, then the counts and the sheet of refused rows, and another file or
 * close. Every screen's import is this dialog with its own calls and words.
 */
export function ImportDialog<R, P = never>(props: Props<R, P>) {
  const { testId, preview: step } = props;
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<P | null>(null);
  const [result, setResult] = useState<R | null>(null);
  const { progress, busy, run } = useImportUpload(file);

  const choose = (picked: File | null) => {
    setFile(picked);
    // A preview speaks of the file it was made for.
    setPreview(null);
  };
  const submit = () =>
    run(props.send, (answer) => {
      setResult(answer);
      props.onImported(answer);
    });
  const previewed = preview !== null;
  const actions = [
    <Button
      key="submit"
      type="primary"
      onClick={() => void submit()}
      disabled={step ? preview === null || !step.importable(preview) : !file}
      loading={busy && (!step || previewed)}
      data-testid={`${testId}-submit`}
    >
      {props.submitLabel}
    </Button>,
  ];
  if (step) {
    actions.unshift(
      <Button
        key="preview"
        type={previewed ? "default" : "primary"}
        onClick={() => void run(step.send, setPreview)}
        disabled={!file || (busy && previewed)}
        loading={busy && !previewed}
        data-testid={`${testId}-preview`}
      >
        {step.label}
      </Button>,
    );
  }
  const report = result === null ? null : props.report(result);

  return (
    <ImportModal
      title={props.title}
      width={props.width ?? 560}
      testId={testId}
      busy={busy}
      finished={result !== null}
      onAgain={() => {
        setResult(null);
        choose(null);
      }}
      onClose={props.onClose}
      actions={actions}
    >
      {report ? (
        <ImportResultView
          testId={testId}
          rejected={report.rejected}
          rejectedFile={report.rejectedFile}
          counts={report.counts}
        >
          {report.details}
        </ImportResultView>
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: "100%" }}>
          <ImportDropZone
            file={file}
            onFile={choose}
            maxBytes={props.maxBytes}
            hint={props.hint}
            disabled={busy}
            testId={testId}
          />
          <Space wrap style={{ width: "100%", justifyContent: "space-between" }}>
            {props.options?.(busy)}
            <TemplateLink url={props.templateUrl} testId={testId} />
          </Space>
          {props.optionsHint}
          {progress !== null && <ImportProgress percent={progress} testId={testId} />}
          {step && preview !== null && !busy && step.view(preview)}
        </Space>
      )}
    </ImportModal>
  );
}

function TemplateLink({ url, testId }: { url: () => string; testId: string }) {
  const t = useT();
  return (
    <Button
      type="link"
      icon={<DownloadOutlined />}
      onClick={() => startDownload(url())}
      data-testid={`${testId}-template`}
      style={{ paddingInline: 0 }}
    >
      {t("import.template")}
    </Button>
  );
}
