import { Button, Modal } from "antd";
import type { ReactNode } from "react";
import { useT } from "../../i18n/index.tsx";

interface Props {
  title: string;
  width: number;
  /** Test id prefix: `<id>-dialog`, `<id>-again`, `<id>-close`. */
  testId: string;
  /** An upload runs: the dialog cannot be closed under it. */
  busy: boolean;
  /** The import has answered: the footer offers another file or closing. */
  finished: boolean;
  onAgain: () => void;
  onClose: () => void;
  /** Footer buttons while choosing and sending a file. */
  actions: ReactNode[];
  children: ReactNode;
}

/** The frame every import dialog shares: not closable while uploading, again / close once done. */
export function ImportModal(props: Props) {
  const t = useT();
  const { testId, busy, onClose } = props;
  const footer = props.finished
    ? [
        <Button key="again" onClick={props.onAgain} data-testid={`${testId}-again`}>
          {t("import.again")}
        </Button>,
        <Button key="close" type="primary" onClick={onClose} data-testid={`${testId}-close`}>
          {t("crud.close")}
        </Button>,
      ]
    : [
        <Button key="cancel" onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </Button>,
        ...props.actions,
      ];
  return (
    <Modal
      open
      title={props.title}
      width={props.width}
      onCancel={busy ? undefined : onClose}
      closable={!busy}
      maskClosable={false}
      footer={footer}
      destroyOnHidden
    >
      <div data-testid={`${testId}-dialog`}>{props.children}</div>
    </Modal>
  );
}
