import type { FieldDef } from "@meterline/contracts";
import { DatePicker, Input, InputNumber, Select } from "antd";
import { useI18n } from "../i18n/index.tsx";
import { useDictionary } from "./dictionary.ts";
import { ImageInput } from "./ImageInput.tsx";
import { RefPicker } from "./RefPicker.tsx";

interface Props {
  /** The field's name in its form (link pickers look up their registered choices by it). */
  name: string;
  field: FieldDef;
  disabled?: boolean;
  /** Injected by Form.Item. */
  value?: unknown;
  onChange?: (value: unknown) => void;
  id?: string;
}

function DictionarySelect({ field, name: _name, ...rest }: Props) {
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

/** The control of one field in add / edit / view dialogs, chosen by its type and its dictionary or ref. */
export function FieldInput(props: Props) {
  const { field, value, onChange, name: _name, ...rest } = props;
  if (field.dict || field.dictBiz) return <DictionarySelect {...props} />;
  if (field.ref || field.refBy) return <RefPicker {...props} />;
  if (field.encrypted && field.type !== "text")
    // Prefilled with the server's mask ("****" and the last four characters); kept unless retyped.
    return (
      <Input.Password
        {...rest}
        value={value as string}
        onChange={(event) => onChange?.(event.target.value)}
        autoComplete="new-password"
        visibilityToggle={false}
      />
    );
  switch (field.type) {
    case "int":
      return (
        <InputNumber
          {...rest}
          value={value as number}
          onChange={onChange}
          min={field.min}
          max={field.max}
          precision={0}
          style={{ width: "100%" }}
        />
      );
    case "decimal":
      // Text in, text out (string mode): money and prices never pass through a float, and the
      // saved "55.00" stays "55.00" unless retyped.
      return (
        <InputNumber<string>
          {...rest}
          stringMode
          value={value as string}
          onChange={(next) => onChange?.(next ?? null)}
          min={field.min === undefined ? undefined : String(field.min)}
          max={field.max === undefined ? undefined : String(field.max)}
          precision={field.scale}
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
    case "image":
      return <ImageInput {...rest} value={value as string | undefined} onChange={onChange} />;
    case "text":
    case "richtext":
      return (
        // Encrypted text (a PEM private key) needs its line breaks, which a password input drops;
        // it is shown masked by the server anyway until retyped.
        <Input.TextArea
          {...rest}
          value={value as string}
          onChange={(event) => onChange?.(event.target.value)}
          autoSize={{ minRows: 2, maxRows: 8 }}
          spellCheck={field.encrypted ? false : undefined}
          autoComplete={field.encrypted ? "off" : undefined}
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
