import type { FieldDef } from "@meterline/contracts";
import { DatePicker, Input, InputNumber, Select, TreeSelect } from "antd";
import { useI18n } from "../i18n/index.tsx";
import { useDictionary } from "./dictionary.ts";
import { useRefChoices } from "./refs.ts";

interface Props {
  field: FieldDef;
  disabled?: boolean;
  /** Injected by Form.Item. */
  value?: unknown;
  onChange?: (value: unknown) => void;
  id?: string;
}

function DictionarySelect({ field, ...rest }: Props) {
  const { language } = useI18n();
  const options = useDictionary(field, language);
  return (
    <Select
      {...rest}
      value={rest.value as string}
      options={options}
      allowClear
      showSearch={{ optionFilterProp: "label" }}
    />
  );
}

function RefSelect({ field, ...rest }: Props) {
  const choices = useRefChoices(field);
  const multiple = field.type === "idList";
  if (choices.kind === "tree") {
    return (
      <TreeSelect
        {...rest}
        value={rest.value as string | string[]}
        treeData={choices.nodes}
        multiple={multiple}
        treeDefaultExpandAll
        allowClear
        showSearch
        treeNodeFilterProp="title"
      />
    );
  }
  return (
    <Select
      {...rest}
      value={rest.value as string | string[]}
      options={choices.options}
      mode={multiple ? "multiple" : undefined}
      allowClear
      showSearch={{ optionFilterProp: "label" }}
    />
  );
}

/** The control of one field in add / edit / view dialogs, chosen by its type and its dictionary or ref. */
export function FieldInput(props: Props) {
  const { field, value, onChange, ...rest } = props;
  if (field.dict || field.dictBiz) return <DictionarySelect {...props} />;
  if (field.ref) return <RefSelect {...props} />;
  switch (field.type) {
    case "int":
    case "decimal":
      return (
        <InputNumber
          {...rest}
          value={value as number}
          onChange={onChange}
          min={field.min}
          max={field.max}
          precision={field.type === "int" ? 0 : field.scale}
          style={{ width: "100%" }}
        />
      );
    case "datetime":
    case "date":
      return (
        <DatePicker
          {...rest}
          value={value as never}
          onChange={onChange}
          showTime={field.type === "datetime"}
          style={{ width: "100%" }}
        />
      );
    case "text":
    case "richtext":
      return (
        <Input.TextArea
          {...rest}
          value={value as string}
          onChange={(event) => onChange?.(event.target.value)}
          autoSize={{ minRows: 2, maxRows: 8 }}
        />
      );
    default:
      return (
        <Input
          {...rest}
          value={value as string}
          onChange={(event) => onChange?.(event.target.value)}
          type={field.secret ? "password" : undefined}
        />
      );
  }
}
