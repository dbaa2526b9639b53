import type { Row } from "@meterline/api-client";
import { codeScreen } from "@meterline/contracts";
import { Button, Select } from "antd";
import { useEffect, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import type { FieldEditorProps, FormCustomization } from "../../crud/form-customization.ts";
import { ResourcePage } from "../../crud/ResourcePage.tsx";
import { useT } from "../../i18n/index.tsx";
import { useConsole } from "../../store/useConsole.ts";
import { copyCode, type DatasourceOption, datasourceOptions, downloadGenerated } from "./develop-calls.ts";

/** Picks the data source a definition reads its table from. */
function DatasourceSelect({ value, onChange, disabled, id }: FieldEditorProps) {
  const [options, setOptions] = useState<DatasourceOption[]>([]);
  useEffect(() => {
    datasourceOptions().then(setOptions, reportNetworkError);
  }, []);
  return (
    <Select
      id={id}
      value={value === undefined || value === null || value === "" ? undefined : String(value)}
      onChange={(next) => onChange?.(next)}
      disabled={disabled}
      options={options.map((o) => ({ value: String(o.id), label: o.name }))}
    />
  );
}

const COLUMN_LISTS = ["listFields", "searchFields", "formFields"];

const form: FormCustomization = {
  editors: { datasourceId: DatasourceSelect },
  extra: (name, t) =>
    COLUMN_LISTS.includes(name)
      ? t("code.columnsHint")
      : name === "resourceName"
        ? t("code.resourceHint")
        : null,
};

/**
 * 代码生成: one definition per table; 生成代码 downloads a zip of the resource definition, its words,
 * its menu seed and its test, which unpacked at the repository root add the screen.
 */
export default function CodePage() {
  const t = useT();
  const { message } = useFeedback();
  const permission = useConsole((state) => state.permission);

  const generate = async (ids: readonly string[]) => {
    try {
      await downloadGenerated(ids);
      message.success(t("code.generated"));
    } catch (error) {
      message.error(error instanceof Error ? error.message : String(error));
    }
  };

  const copy = async (row: Row, reload: () => Promise<void>) => {
    try {
      await copyCode(String(row.id));
      message.success(t("code.copied"));
      await reload();
    } catch (error) {
      reportNetworkError(error);
    }
  };

  return (
    <ResourcePage
      def={codeScreen}
      form={form}
      dialogWidth={900}
      toolbar={(_reload, selected) =>
        permission.code_gen && (
          <Button
            disabled={selected.length === 0}
            onClick={() => void generate(selected)}
            data-testid="code-gen-selected"
          >
            {t("code.generate")}
          </Button>
        )
      }
      rowActions={(row, reload) => (
        <>
          {permission.code_gen ? (
            <Button
              type="link"
              size="small"
              onClick={() => void generate([String(row.id)])}
              data-testid="row-code-gen"
            >
              {t("code.generate")}
            </Button>
          ) : null}
          {permission.code_copy ? (
            <Button
              type="link"
              size="small"
              onClick={() => void copy(row, reload)}
              data-testid="row-code-copy"
            >
              {t("code.copy")}
            </Button>
          ) : null}
        </>
      )}
    />
  );
}
