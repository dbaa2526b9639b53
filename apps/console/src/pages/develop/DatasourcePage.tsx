import type { Row } from "@meterline/api-client";
import { datasourceScreen } from "@meterline/contracts";
import { Button } from "antd";
import { useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import type { FormCustomization } from "../../crud/form-customization.ts";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { testConnection } from "./develop-calls.ts";

const form: FormCustomization = {
  extra: (name, t) => (name === "url" ? t("datasource.urlHint") : null),
};

/**
 * 数据源: connection settings to PostgreSQL databases, the password masked, and a test of a stored
 * one; the server only connects to hosts its administrator allowed.
 */
export default function DatasourcePage() {
  const t = useT();
  const { message } = useFeedback();
  const canTest = useConsole((state) => state.permission.datasource_test === true);
  const [testing, setTesting] = useState<string>();

  const test = async (row: Row) => {
    setTesting(String(row.id));
    try {
      const { version } = await testConnection(String(row.id));
      message.success(t("datasource.connected", { version }));
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setTesting(undefined);
    }
  };

  return (
    <ResourcePage
      def={datasourceScreen}
      form={form}
      columns={(generated) =>
        generated.map((column) =>
          column.key === "url"
            ? { ...column, render: (value: unknown) => (value ? String(value) : t("datasource.own")) }
            : column,
        )
      }
      rowActions={(row) =>
        canTest && (
          <Button
            type="link"
            size="small"
            loading={testing === String(row.id)}
            onClick={() => void test(row)}
            data-testid="row-datasource-test"
          >
            {t("datasource.test")}
          </Button>
        )
      }
    />
  );
}
