import { resources } from "@meterline/contracts";
import { Descriptions, Form, Input, Modal, Select, Spin } from "antd";
import { useEffect, useState } from "react";
import { reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { useDictionary } from "../../crud/dictionary.ts";
import { fieldLabel } from "../../crud/labels.ts";
import { rulesOf } from "../../crud/rules.ts";
import { validatedValues } from "../../crud/validated.ts";
import { useI18n } from "../../i18n/index.tsx";
import { type PlatformDetail, platformDetail, updatePlatform } from "./user-calls.ts";
import { prettyJson, userExtProblem } from "./user-rules.ts";

const { fields } = resources.user;

interface Props {
  userId: string;
  onClose: () => void;
  /** Called after a save, so the page can show the new platform in its table. */
  onSaved: () => void;
}

interface Values {
  userType?: string;
  userExt?: string;
}

/** A user's platform (user type, from the `user_type` dictionary) and that platform's JSON settings. */
export function UserPlatformDialog({ userId, onClose, onSaved }: Props) {
  const { t, language } = useI18n();
  const { message } = useFeedback();
  const [form] = Form.useForm<Values>();
  const [detail, setDetail] = useState<PlatformDetail | null>(null);
  const [saving, setSaving] = useState(false);
  const platforms = useDictionary(fields.userType, language);
  const label = (name: keyof typeof fields) => fieldLabel(resources.user, name, language);

  useEffect(() => {
    let live = true;
    platformDetail(userId)
      .then((loaded) => {
        if (!live) return;
        setDetail(loaded);
        form.setFieldsValue({ userType: String(loaded.userType), userExt: prettyJson(loaded.userExt ?? "") });
      })
      .catch((error: unknown) => {
        // Nothing to edit without the detail; a server refusal was toasted by the API bridge.
        reportNetworkError(error);
        if (live) onClose();
      });
    return () => {
      live = false;
    };
  }, [userId, form, onClose]);

  const save = async () => {
    const values = await validatedValues(form);
    if (!values) return;
    setSaving(true);
    try {
      await updatePlatform({
        userId,
        userType: Number(values.userType),
        userExt: (values.userExt ?? "").trim(),
      });
      message.success(t("crud.updated"));
      onSaved();
    } catch (error) {
      // Shown by the API bridge (or here for transport failures); the dialog keeps what was typed.
      reportNetworkError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open
      title={t("user.platformTitle", { account: detail?.account ?? "" })}
      width={560}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t("crud.submit")}
      confirmLoading={saving}
      okButtonProps={{ disabled: !detail, "data-testid": "user-platform-ok" }}
      destroyOnHidden
    >
      <Spin spinning={!detail}>
        <Descriptions
          size="small"
          column={2}
          style={{ marginBottom: 16 }}
          items={[
            { key: "account", label: label("account"), children: detail?.account },
            { key: "realName", label: label("realName"), children: detail?.realName },
          ]}
        />
        <Form form={form} layout="vertical" data-testid="user-platform-dialog">
          <Form.Item
            name="userType"
            label={label("userType")}
            rules={rulesOf(fields.userType, label("userType"), t)}
          >
            <Select options={platforms} />
          </Form.Item>
          <Form.Item
            name="userExt"
            label={label("userExt")}
            extra={t("user.userExtHint")}
            rules={[
              ...rulesOf(fields.userExt, label("userExt"), t),
              {
                validator: async (_, value: string | undefined) => {
                  const problem = userExtProblem(value);
                  if (problem) throw new Error(t(problem));
                },
              },
            ]}
          >
            <Input.TextArea autoSize={{ minRows: 4, maxRows: 12 }} spellCheck={false} />
          </Form.Item>
        </Form>
      </Spin>
    </Modal>
  );
}
