import type { OwnProfile } from "@meterline/api-client";
import { Button, Form, Input, Spin } from "antd";
import { useEffect, useState } from "react";
import { api, reportNetworkError } from "../../app/api.ts";
import { useFeedback } from "../../app/feedback.ts";
import { useT } from "../../i18n/index.tsx";
import { store } from "../../store/store.ts";
import { AvatarUpload } from "./AvatarUpload.tsx";
import { phoneProblem } from "./profile-rules.ts";

/** One's own avatar, names, phone and e-mail, saved with update-info. */
export function ProfileForm() {
  const t = useT();
  const { message } = useFeedback();
  const [form] = Form.useForm<OwnProfile>();
  const [loaded, setLoaded] = useState(false);
  const [saving, setSaving] = useState(false);
  // Only a phone once given must stay given: an account without one saves its names all the same.
  const [hadPhone, setHadPhone] = useState(false);

  useEffect(() => {
    let live = true;
    api
      .ownInfo()
      .then((info) => {
        if (!live) return;
        form.setFieldsValue(info);
        setHadPhone(Boolean(info.phone?.trim()));
        setLoaded(true);
      })
      .catch(reportNetworkError);
    return () => {
      live = false;
    };
  }, [form]);

  const save = async (values: OwnProfile) => {
    setSaving(true);
    try {
      await api.updateInfo(values);
      // The top bar shows the name and avatar kept with the session; keep them current.
      store.setState((state) => ({
        userInfo: state.userInfo && {
          ...state.userInfo,
          avatar: values.avatar ?? "",
          nick_name: values.name ?? "",
          real_name: values.realName ?? "",
        },
      }));
      message.success(t("info.saved"));
    } catch (error) {
      reportNetworkError(error);
    } finally {
      setSaving(false);
    }
  };

  const required = (key: "info.name" | "info.realName") => [
    { required: true, whitespace: true, message: t("crud.required", { label: t(key) }) },
  ];
  return (
    <Spin spinning={!loaded}>
      <Form
        form={form}
        layout="vertical"
        onFinish={save}
        style={{ maxWidth: 520 }}
        data-testid="info-profile"
      >
        <Form.Item name="avatar" label={t("info.avatar")}>
          <AvatarUpload />
        </Form.Item>
        <Form.Item name="name" label={t("info.name")} rules={required("info.name")}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item name="realName" label={t("info.realName")} rules={required("info.realName")}>
          <Input maxLength={20} />
        </Form.Item>
        <Form.Item
          name="phone"
          label={t("info.phone")}
          required={hadPhone}
          rules={[
            {
              validator: (_, value: string | undefined) => {
                const problem = phoneProblem(value, { optional: !hadPhone });
                return problem ? Promise.reject(new Error(t(problem))) : Promise.resolve();
              },
            },
          ]}
        >
          <Input />
        </Form.Item>
        <Form.Item
          name="email"
          label={t("info.email")}
          rules={[{ type: "email", message: t("crud.pattern.email") }]}
        >
          <Input maxLength={45} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="info-save">
          {t("crud.submit")}
        </Button>
      </Form>
    </Spin>
  );
}
