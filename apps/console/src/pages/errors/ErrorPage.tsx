import { Button, Result } from "antd";
import { useNavigate } from "react-router";
import { useDocumentTitle } from "../../app/useDocumentTitle.ts";
import { useT } from "../../i18n/index.tsx";

export type ErrorCode = 403 | 404 | 500;

/** /403, /404 and /500: a full-page result with a way back home. */
export function ErrorPage({ code }: { code: ErrorCode }) {
  const t = useT();
  const navigate = useNavigate();
  useDocumentTitle(t(`error.${code}.title`));
  return (
    <div className="ml-error-page" data-testid={`error-${code}`}>
      <Result
        status={code}
        title={t(`error.${code}.title`)}
        subTitle={t(`error.${code}.subtitle`)}
        extra={
          <Button type="primary" onClick={() => navigate("/")} data-testid="back-home">
            {t("common.backHome")}
          </Button>
        }
      />
    </div>
  );
}
